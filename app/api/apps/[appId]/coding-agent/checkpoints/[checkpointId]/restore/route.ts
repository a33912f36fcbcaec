import { getDatabase } from "@/db/client";
import { otherMethods, parseWith, route } from "@/lib/api/handler";
import { serializeCheckpoint, serializeRevision } from "@/lib/api/serializers";
import { restoreCheckpoint } from "@/lib/workspace";
import { checkpointParamsSchema } from "../../schemas";

export const dynamic = "force-dynamic";

export const POST = route<{ appId: string; checkpointId: string }>(async (_request, { params }) => {
  const { appId, checkpointId } = parseWith(checkpointParamsSchema, params, "path");
  const { checkpoint, revision } = await restoreCheckpoint(await getDatabase(), {
    appId,
    checkpointId,
  });
  return Response.json(
    { checkpoint: serializeCheckpoint(checkpoint), revision: serializeRevision(revision) },
    { status: 201 },
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
