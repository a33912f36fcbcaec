import { getDatabaseHandle } from "@/db/client";
import { openRunEventStream, sseHeaders } from "@/lib/agent";
import { otherMethods, parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { lastEventIdSchema, runParamsSchema, streamQuerySchema } from "../../schemas";

export const dynamic = "force-dynamic";

/** SSE per PRODUCT.md §3: replay after Last-Event-ID (or ?after=), then live until the run ends. */
export const GET = route<{ appId: string; runId: string }>(async (request, { params }) => {
  const { appId, runId } = parseWith(runParamsSchema, params, "path");
  const query = parseSearchParams(request, streamQuerySchema);
  const lastEventIdHeader = request.headers.get("last-event-id");
  const afterSeq =
    lastEventIdHeader === null || lastEventIdHeader === ""
      ? (query.after ?? 0)
      : parseWith(lastEventIdSchema, lastEventIdHeader, "Last-Event-ID header");
  const stream = await openRunEventStream(await getDatabaseHandle(), {
    appId,
    runId,
    afterSeq,
    signal: request.signal,
  });
  return new Response(stream, { headers: sseHeaders });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
