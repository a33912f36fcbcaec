import { getDatabase } from "@/db/client";
import { otherMethods, parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { diffRevisions } from "@/lib/workspace";
import { diffQuerySchema, revisionParamsSchema } from "../schemas";

export const dynamic = "force-dynamic";

export const GET = route<{ appId: string; revisionId: string }>(async (request, { params }) => {
  const { appId, revisionId } = parseWith(revisionParamsSchema, params, "path");
  const query = parseSearchParams(request, diffQuerySchema);
  return Response.json(
    await diffRevisions(await getDatabase(), {
      appId,
      revisionId,
      againstRevisionId: query.against,
    }),
  );
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
