import { getDatabase } from "@/db/client";
import { parseSearchParams, route } from "@/lib/api/handler";
import { serializeApp } from "@/lib/api/serializers";
import { PatchworkError } from "@/lib/errors";
import { importZip, workspaceLimits } from "@/lib/workspace";
import { importAppQuerySchema } from "./schemas";

export const dynamic = "force-dynamic";

/** POST a zip archive as the raw body (`?name=`): a new app whose first revision is `import`. */
export const POST = route(async (request) => {
  const query = parseSearchParams(request, importAppQuerySchema);
  // The archive is compressed, so the app's byte limit bounds it from above.
  const limit = workspaceLimits.maxAppBytes;
  const declared = Number(request.headers.get("content-length") ?? "0");
  const archive = new Uint8Array(await request.arrayBuffer());
  if (declared > limit || archive.byteLength > limit)
    throw new PatchworkError("PAYLOAD_TOO_LARGE", "Zip archives are limited to 25 MiB.", {
      details: { size: Math.max(declared, archive.byteLength), limit },
    });
  const app = await importZip(await getDatabase(), { name: query.name, archive });
  return Response.json({ app: serializeApp(app) }, { status: 201 });
});
