import { getDatabaseHandle } from "@/db/client";
import { openRunEventStream, sseHeaders } from "@/lib/agent";
import { parseSearchParams, parseWith, route } from "@/lib/api/handler";
import { runParamsSchema, streamQuerySchema } from "../../schemas";

export const dynamic = "force-dynamic";

/** SSE per PRODUCT.md §3: replay after Last-Event-ID (or ?after=), then live until the run ends. */
export const GET = route<{ appId: string; runId: string }>(async (request, { params }) => {
  const { appId, runId } = parseWith(runParamsSchema, params, "path");
  const query = parseSearchParams(request, streamQuerySchema);
  const lastEventId = Number.parseInt(request.headers.get("last-event-id") ?? "", 10);
  const afterSeq =
    Number.isFinite(lastEventId) && lastEventId >= 0 ? lastEventId : (query.after ?? 0);
  const stream = await openRunEventStream(await getDatabaseHandle(), {
    appId,
    runId,
    afterSeq,
    signal: request.signal,
  });
  return new Response(stream, { headers: sseHeaders });
});
