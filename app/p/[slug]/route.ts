import { z } from "zod";
import { getDatabase } from "@/db/client";
import { parseWith, route } from "@/lib/api/handler";
import { renderPublishedDocument } from "@/lib/app-preview";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "not a valid app address"),
});

/** A published app: public, stable URL, same isolation as the preview. */
export const GET = route<{ slug: string }>(async (_request, { params }) => {
  const { slug } = parseWith(paramsSchema, params, "path");
  return renderPublishedDocument(await getDatabase(), { slug });
});
