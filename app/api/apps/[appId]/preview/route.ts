import { getDatabase } from "@/db/client";
import { otherMethods, parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { serializePreviewStatus } from "@/lib/api/serializers";
import { buildRevisionPreview } from "@/lib/app-preview";
import { revisionQuerySchema } from "../files/schemas";

export const dynamic = "force-dynamic";

/** The build status of a revision's preview: diagnostics for the builder's error overlay. */
export const GET = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const query = parseSearchParams(request, revisionQuerySchema);
  const { revisionId, build } = await buildRevisionPreview(await getDatabase(), {
    appId,
    revisionId: query.revision,
  });
  return Response.json(serializePreviewStatus(revisionId, build));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
