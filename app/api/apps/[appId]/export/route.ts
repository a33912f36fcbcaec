import { getDatabase } from "@/db/client";
import { parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { exportZip, getApp } from "@/lib/workspace";
import { exportQuerySchema } from "./schemas";

export const dynamic = "force-dynamic";

/** The draft (or `?revision=`) as a zip download named after the app's slug. */
export const GET = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const query = parseSearchParams(request, exportQuerySchema);
  const database = await getDatabase();
  const app = await getApp(database, { appId });
  const archive = await exportZip(database, { appId, revisionId: query.revision });
  return new Response(Buffer.from(archive), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${app.slug}.zip"`,
      "cache-control": "no-store",
    },
  });
});
