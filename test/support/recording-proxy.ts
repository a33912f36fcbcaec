import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";

/** One request that passed through the proxy, and what came back. */
export interface ProxiedExchange {
  method: string;
  path: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: string;
  /** The upstream status, 0 until it answers. */
  status: number;
  /** The `data:` of each SSE event of the answer, stamped when its last byte reached the proxy. */
  events: { receivedAt: number; data: string }[];
}

export interface RecordingProxy {
  /** The proxy's origin followed by the target's path, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  exchanges: ProxiedExchange[];
  close(): Promise<void>;
}

/**
 * A transparent HTTP proxy in front of one upstream (the scripted model server) that records
 * request headers and bodies and stamps each SSE event of the answers with `performance.now()`.
 * Tests use it to see what Patchwork sends a provider; the stream benchmark uses the stamps as
 * "when the model emitted this delta", on the same clock as its SSE client.
 */
export async function startRecordingProxy({ target }: { target: string }): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const exchanges: ProxiedExchange[] = [];
  const server = createServer({ noDelay: true }, (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const exchange: ProxiedExchange = {
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        requestHeaders: incoming.headers,
        requestBody: body.toString("utf8"),
        status: 0,
        events: [],
      };
      exchanges.push(exchange);
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: exchange.method,
          path: exchange.path,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          exchange.status = answer.statusCode ?? 0;
          outgoing.writeHead(exchange.status, answer.headers);
          outgoing.flushHeaders();
          const isEventStream = (answer.headers["content-type"] ?? "").startsWith(
            "text/event-stream",
          );
          let receivedAt = 0;
          const parser = createParser({
            onEvent: (message) => exchange.events.push({ receivedAt, data: message.data }),
          });
          answer.setEncoding("utf8");
          answer.on("data", (text: string) => {
            receivedAt = performance.now();
            // Forward first, so recording never delays what Patchwork receives.
            outgoing.write(text);
            if (isEventStream) parser.feed(text);
          });
          answer.on("end", () => outgoing.end());
          answer.on("error", () => outgoing.destroy());
        },
      );
      forwarded.on("error", () => outgoing.destroy());
      // Patchwork hanging up (a cancel, a timeout) hangs up on the upstream too, as a direct call would.
      outgoing.on("close", () => forwarded.destroy());
      forwarded.setNoDelay(true);
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, "")}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
