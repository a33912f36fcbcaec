import { getDatabase } from "@/db/client";
import { listRevisions } from "@/db/queries/revisions";
import { otherMethods, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { serializeRevision } from "@/lib/api/serializers";
import { getApp } from "@/lib/workspace";

export const dynamic = "force-dynamic";

export const GET = route<{ appId: string }>(async (_request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const db = await getDatabase();
  const app = await getApp(db, { appId });
  const revisions = await listRevisions(db, { appId });
  return Response.json({
    draft_revision_id: app.draftRevisionId,
    revisions: revisions.map(serializeRevision),
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
