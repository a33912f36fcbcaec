import { getDatabase } from "@/db/client";
import { listCheckpointsWithRuns } from "@/db/queries/checkpoints";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { serializeCheckpoint } from "@/lib/api/serializers";
import { createCheckpoint, getApp } from "@/lib/workspace";
import { createCheckpointBodySchema } from "./schemas";

export const dynamic = "force-dynamic";

export const GET = route<{ appId: string }>(async (_request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const db = await getDatabase();
  await getApp(db, { appId });
  const checkpoints = await listCheckpointsWithRuns(db, { appId });
  return Response.json({ checkpoints: checkpoints.map(serializeCheckpoint) });
});

export const POST = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const body = await parseJsonBody(request, createCheckpointBodySchema);
  const checkpoint = await createCheckpoint(await getDatabase(), {
    appId,
    revisionId: body.revision_id,
    kind: "manual",
    label: body.label,
  });
  return Response.json({ checkpoint: serializeCheckpoint(checkpoint) }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"]);
