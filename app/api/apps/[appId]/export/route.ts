import { getDatabase } from "@/db/client";
import { otherMethods, parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { exportGitRepository, exportZip, getApp } from "@/lib/workspace";
import { exportQuerySchema } from "./schemas";

export const dynamic = "force-dynamic";

/**
 * `?format=zip`: the draft (or `?revision=`) as a zip named after the app's slug;
 * `?format=git`: the whole history as a zipped bare git repository, one commit per revision.
 */
export const GET = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const query = parseSearchParams(request, exportQuerySchema);
  const database = await getDatabase();
  const app = await getApp(database, { appId });
  if (query.format === "git") {
    const { archive, name } = await exportGitRepository(database, { appId });
    return download(archive, `${name}.zip`);
  }
  const archive = await exportZip(database, { appId, revisionId: query.revision });
  return download(archive, `${app.slug}.zip`);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);

function download(archive: Uint8Array, filename: string): Response {
  return new Response(Buffer.from(archive), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
}
