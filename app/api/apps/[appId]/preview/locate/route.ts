import { z } from "zod";
import { getDatabase } from "@/db/client";
import { otherMethods, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema, uuidSchema } from "@/lib/api/schemas";
import { buildRevisionPreview } from "@/lib/app-preview";
import { previewSourceMap } from "@/lib/preview";
import { locateFirstAppFrame } from "@/lib/preview/locate-runtime-error";

export const dynamic = "force-dynamic";

const positionSchema = z
  .string()
  .regex(/^\d{1,7}:\d{1,9}$/, "each frame is line:column")
  .transform((value) => {
    const [line, column] = value.split(":").map(Number);
    return { line, column };
  });

const querySchema = z.object({
  revision: uuidSchema,
  // One error's stack frames, innermost first, in the bundle's coordinates.
  frame: z.array(positionSchema).max(8, "at most 8 frames"),
});

/**
 * Maps a runtime error's stack frames (bundle positions, as the preview's reporter sends them)
 * to the first one in the app's own files, with the revision's source map. The map stays on the
 * server; the builder asks once per error.
 */
export const GET = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const url = new URL(request.url);
  const query = parseWith(
    querySchema,
    {
      revision: url.searchParams.get("revision") ?? undefined,
      frame: url.searchParams.getAll("frame"),
    },
    "query",
  );
  const { build, files } = await buildRevisionPreview(await getDatabase(), {
    appId,
    revisionId: query.revision,
  });
  const sourceMap = await previewSourceMap({ key: query.revision, appId, files }, build);
  return Response.json({ location: locateFirstAppFrame(sourceMap, query.frame) });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
