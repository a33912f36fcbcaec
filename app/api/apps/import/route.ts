import { getDatabase } from "@/db/client";
import { otherMethods, parseSearchParams, route } from "@/lib/api/handler";
import { readBodyWithLimit } from "@/lib/api/read-body";
import { serializeApp } from "@/lib/api/serializers";
import { importZip, workspaceLimits } from "@/lib/workspace";
import { importAppQuerySchema } from "./schemas";

export const dynamic = "force-dynamic";

/** POST a zip archive as the raw body (`?name=`): a new app whose first revision is `import`. */
export const POST = route(async (request) => {
  const query = parseSearchParams(request, importAppQuerySchema);
  // The archive is compressed, so the app's byte limit bounds it from above.
  const limit = workspaceLimits.maxAppBytes;
  const archive = await readBodyWithLimit(request, { limit, what: "Zip archives" });
  const app = await importZip(await getDatabase(), { name: query.name, archive });
  return Response.json({ app: serializeApp(app) }, { status: 201 });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
