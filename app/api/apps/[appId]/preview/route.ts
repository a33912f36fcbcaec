import { getDatabase } from "@/db/client";
import { otherMethods, parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
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
  return Response.json({
    revision_id: revisionId,
    ok: build.ok,
    diagnostics: build.diagnostics,
    built_at: build.builtAt,
    duration_ms: Math.round(build.durationMs),
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
