import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import zlib from "node:zlib";

/** Reads a response's bytes as they arrive, without a web stream in between. */
export interface BodyListener {
  data(chunk: Buffer): void;
  end(): void;
  error(error: unknown): void;
}

/** The socket side of a body read through {@link listenToBody}. */
export interface BodyFlow {
  /** Stops reading the socket until `resume`, when the listener's own reader falls behind. */
  pause(): void;
  resume(): void;
  /** Stops the body for good (the reader went away) and closes the connection. */
  cancel(): void;
}

/** Bodies of responses made here that can still be read without their web stream. */
const directBodies = new WeakMap<Response, (listener: BodyListener) => BodyFlow>();

/**
 * Hands the body of a response made by {@link nodeHttpFetch} to `listener`, chunk by chunk as the
 * socket delivers it; undefined for any other response, or once its body was read either way.
 * The response's own `body` must not be read afterwards: it is left empty.
 */
export function listenToBody(response: Response, listener: BodyListener): BodyFlow | undefined {
  const listen = directBodies.get(response);
  if (!listen) return undefined;
  directBodies.delete(response);
  return listen(listener);
}

/** Like undici's defaults: a provider silent this long is gone. The run's watchdog is stricter. */
const socketIdleTimeoutMs = 300_000;

/**
 * Connections are kept for the next call, as fetch keeps them, but closed after 4 s idle (fetch's
 * default, and Node also honours a shorter `Keep-Alive: timeout` from the server): reusing a
 * connection the provider has just closed fails the call, and the SDK must retry it.
 */
const agentOptions = { keepAlive: true, timeout: 4_000 };
const agents = {
  "http:": new http.Agent(agentOptions),
  "https:": new https.Agent(agentOptions),
};

/**
 * `fetch` for model providers, over `node:http`, whose streamed answers can be read without web
 * streams (see {@link listenToBody}).
 *
 * Why: Node's fetch delivers every network read through web streams, and a `pipeThrough` costs
 * several promises per read. With twenty runs of a fast model that is ~9,000 reads a second, and
 * measured on this project's server (Next's AsyncLocalStorages make every promise dearer), ~65 µs of
 * CPU each through fetch and a TransformStream against ~18 µs through a socket's `data` events:
 * close to half a core, spent before the text reached anybody.
 *
 * It does what the AI SDK's providers ask of fetch, and no more: string or byte bodies, an abort
 * signal, decompression, Node-style network errors wrapped as fetch wraps them (`TypeError: fetch
 * failed` with the cause, which the SDK retries). Redirects are not followed: provider APIs do
 * not redirect, and following one would send the API key wherever it pointed. Anything else
 * (another body type, a `Request` object) goes to the global fetch.
 */
export const nodeHttpFetch: typeof globalThis.fetch = async (input, init) => {
  const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
  const body = init?.body;
  if (
    !url ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    (body != null && typeof body !== "string" && !(body instanceof Uint8Array))
  ) {
    return globalThis.fetch(input, init);
  }
  const signal = init?.signal ?? undefined;
  signal?.throwIfAborted();
  const headers = new Headers(init?.headers);
  if (body != null) headers.set("content-length", String(Buffer.byteLength(body)));

  return new Promise<Response>((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(url, {
      method: init?.method ?? "GET",
      headers: Object.fromEntries(headers),
      agent: agents[url.protocol as keyof typeof agents],
    });
    request.setNoDelay(true);
    request.setTimeout(socketIdleTimeoutMs, () =>
      request.destroy(Object.assign(new Error("The provider went silent"), { code: "ETIMEDOUT" })),
    );
    let answered = false;
    const onAbort = () => request.destroy(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      if (!answered) reject(signal?.aborted ? signal.reason : fetchFailed(error));
    });
    request.once("response", (incoming) => {
      answered = true;
      resolve(toResponse(incoming, signal, () => signal?.removeEventListener("abort", onAbort)));
    });
    request.end(body ?? undefined);
  });
};

function toResponse(
  incoming: http.IncomingMessage,
  signal: AbortSignal | undefined,
  done: () => void,
): Response {
  const headers = new Headers();
  for (let index = 0; index + 1 < incoming.rawHeaders.length; index += 2) {
    headers.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1]);
  }
  const status = incoming.statusCode ?? 502;
  const init = { status, statusText: incoming.statusMessage, headers };
  if ([101, 204, 205, 304].includes(status)) {
    incoming.resume();
    done();
    return new Response(null, init);
  }
  const source = decoded(incoming);
  // A failure nobody is reading the body to hear of must not crash the process.
  source.on("error", () => undefined);
  const listen = (listener: BodyListener): BodyFlow => {
    let settled = false;
    /** The body's end or failure, told once; `done` drops the abort listener. */
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      done();
      if (error === undefined) listener.end();
      else listener.error(error);
    };
    source.on("data", (chunk: Buffer) => listener.data(chunk));
    source.once("end", () => settle());
    source.on("error", (error) => settle(signal?.aborted ? signal.reason : terminated(error)));
    // A socket closed before the body's end is an error, as fetch reports it.
    incoming.once("close", () => {
      if (!incoming.complete) settle(signal?.aborted ? signal.reason : terminated());
    });
    return {
      pause: () => source.pause(),
      resume: () => source.resume(),
      cancel: () => {
        settled = true;
        done();
        incoming.destroy();
      },
    };
  };

  let flow: BodyFlow | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      // Only called once somebody reads (a high-water mark of 0), so that `listenToBody` can
      // still claim the body after the response is handed over.
      pull(controller) {
        if (flow) {
          flow.resume();
          return;
        }
        // `listenToBody` took the body: this stream has nothing of it.
        if (!directBodies.delete(response)) {
          controller.close();
          return;
        }
        flow = listen({
          data: (chunk) => {
            controller.enqueue(chunk);
            if ((controller.desiredSize ?? 0) < 0) flow?.pause();
          },
          end: () => controller.close(),
          error: (error) => controller.error(error),
        });
      },
      cancel() {
        if (flow) {
          flow.cancel();
        } else {
          incoming.destroy();
          done();
        }
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(body, init);
  directBodies.set(response, listen);
  return response;
}

/** The body as its bytes were sent, before any content-encoding (as fetch gives it). */
function decoded(incoming: http.IncomingMessage): Readable {
  const encoding = (incoming.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return incoming;
  incoming.on("error", (error) => decoder.destroy(error));
  return incoming.pipe(decoder);
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError("fetch failed", { cause });
}

function terminated(cause?: unknown): TypeError {
  return new TypeError("terminated", cause === undefined ? undefined : { cause });
}
