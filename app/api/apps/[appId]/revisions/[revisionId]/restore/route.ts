import { getDatabase } from "@/db/client";
import { otherMethods, parseWith, route } from "@/lib/api/handler";
import { serializeRevision } from "@/lib/api/serializers";
import { restoreRevision } from "@/lib/workspace";
import { revisionParamsSchema } from "../schemas";

export const dynamic = "force-dynamic";

export const POST = route<{ appId: string; revisionId: string }>(async (_request, { params }) => {
  const { appId, revisionId } = parseWith(revisionParamsSchema, params, "path");
  const revision = await restoreRevision(await getDatabase(), { appId, revisionId });
  return Response.json({ revision: serializeRevision(revision) }, { status: 201 });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
