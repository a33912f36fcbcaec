import { z } from "zod";
import { getDatabase } from "@/db/client";
import { parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { uuidSchema } from "@/lib/api/schemas";
import { renderRevisionDocument } from "@/lib/app-preview";

export const dynamic = "force-dynamic";

const querySchema = z.object({ revision: uuidSchema.optional() });

/**
 * The draft preview document. Its CSP carries `sandbox`, so even opened in its own tab the app
 * runs in an opaque origin and cannot use the builder's cookies or API.
 */
export const GET = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(z.object({ appId: uuidSchema }), params, "path");
  const query = parseSearchParams(request, querySchema);
  return renderRevisionDocument(await getDatabase(), {
    appId,
    revisionId: query.revision,
    reportRuntimeErrors: true,
  });
});
