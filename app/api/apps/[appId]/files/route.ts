import { getDatabase } from "@/db/client";
import { otherMethods, parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { listFiles } from "@/lib/workspace";
import { revisionQuerySchema } from "./schemas";

export const dynamic = "force-dynamic";

export const GET = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const query = parseSearchParams(request, revisionQuerySchema);
  return Response.json(await listFiles(await getDatabase(), { appId, revisionId: query.revision }));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
