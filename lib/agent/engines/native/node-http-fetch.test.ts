import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type BodyListener, listenToBody, nodeHttpFetch } from "./node-http-fetch";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

interface TestServer {
  url: string;
  requests: { method: string; path: string; headers: IncomingMessage["headers"]; body: string }[];
  /** Resolves when the server saw a request's connection close. */
  closed: Promise<void>;
}

let server: Server | undefined;

afterEach(async () => {
  const current = server;
  server = undefined;
  if (current) {
    current.closeAllConnections();
    await new Promise((resolve) => current.close(resolve));
  }
});

async function serve(handler: Handler): Promise<TestServer> {
  const requests: TestServer["requests"] = [];
  let onClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    onClosed = resolve;
  });
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body,
      });
      response.on("close", onClosed);
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, closed };
}

/** A server that sends one event and then keeps the response open. */
function serveOpenStream(): Promise<TestServer> {
  return serve((_, __, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write("data: first\n\n");
  });
}

/** Records what a body listener is told, and resolves when the body ended either way. */
function recordingListener() {
  const chunks: string[] = [];
  let settle: (outcome: { ended: boolean; error?: unknown }) => void = () => undefined;
  const outcome = new Promise<{ ended: boolean; error?: unknown }>((resolve) => {
    settle = resolve;
  });
  const listener: BodyListener = {
    data: (chunk) => chunks.push(chunk.toString("utf8")),
    end: () => settle({ ended: true }),
    error: (error) => settle({ ended: false, error }),
  };
  return { chunks, outcome, listener };
}

describe("nodeHttpFetch", () => {
  it("sends the method, headers and body, and answers like fetch", async () => {
    const { url, requests } = await serve((_, body, response) => {
      response.statusMessage = "Created";
      response.setHeader("content-type", "application/json");
      response.setHeader("x-many", ["one", "two"]);
      response.writeHead(201);
      response.end(JSON.stringify({ echoed: JSON.parse(body) }));
    });
    const response = await nodeHttpFetch(`${url}/v1/chat?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer key" },
      body: JSON.stringify({ text: "Crème brûlée 🎉" }),
    });

    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: "POST", path: "/v1/chat?x=1" });
    expect(requests[0].headers.authorization).toBe("Bearer key");
    // Counted in bytes, not characters: the body has multi-byte characters.
    expect(requests[0].headers["content-length"]).toBe(
      String(Buffer.byteLength(JSON.stringify({ text: "Crème brûlée 🎉" }))),
    );
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.statusText).toBe("Created");
    expect(response.headers.get("x-many")).toBe("one, two");
    expect(await response.json()).toEqual({ echoed: { text: "Crème brûlée 🎉" } });
  });

  it("decodes a gzip-encoded body, as fetch does", async () => {
    const { url } = await serve((_, __, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain" });
      response.end(gzipSync("hello, compressed world"));
    });
    const response = await nodeHttpFetch(url);
    expect(await response.text()).toBe("hello, compressed world");
  });

  it("answers a 204 with no body", async () => {
    const { url } = await serve((_, __, response) => {
      response.writeHead(204);
      response.end();
    });
    const response = await nodeHttpFetch(url, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("does not follow a redirect, so an API key is never sent elsewhere", async () => {
    const { url, requests } = await serve((_, __, response) => {
      response.writeHead(307, { location: "http://127.0.0.1:1/elsewhere" });
      response.end();
    });
    const response = await nodeHttpFetch(`${url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "secret" },
      body: "{}",
    });
    expect(response.status).toBe(307);
    expect(requests).toHaveLength(1);
  });

  it("fails like fetch when nothing listens: TypeError 'fetch failed' with the cause", async () => {
    const { url } = await serve(() => undefined);
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    const failure = await nodeHttpFetch(url).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("fetch failed");
    expect(((failure as TypeError).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("rejects with the signal's reason when aborted before the answer, and hangs up", async () => {
    const { url, closed } = await serve(() => undefined);
    const controller = new AbortController();
    const pending = nodeHttpFetch(url, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await closed;
  });

  it("refuses at once when the signal is already aborted", async () => {
    const { url, requests } = await serve((_, __, response) => response.end("too late"));
    await expect(nodeHttpFetch(url, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(requests).toHaveLength(0);
  });

  it("errors the body with the signal's reason when aborted while it streams", async () => {
    const { url } = await serveOpenStream();
    const controller = new AbortController();
    const response = await nodeHttpFetch(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("errors the body with TypeError 'terminated' when the server hangs up mid-body", async () => {
    const { url } = await serve((_, __, response) => {
      response.writeHead(200, { "content-type": "text/plain", "content-length": "100" });
      response.write("only part of it");
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const response = await nodeHttpFetch(url);
    const failure = await response.text().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("terminated");
  });

  it("reads a large body through its web stream whole", async () => {
    const large = "0123456789abcdef".repeat(256 * 1024);
    const { url } = await serve((_, __, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(large);
    });
    const response = await nodeHttpFetch(url);
    expect(await response.text()).toBe(large);
  });

  it("keeps the connection for the next call", async () => {
    const ports: number[] = [];
    const { url } = await serve((request, _, response) => {
      ports.push(request.socket.remotePort ?? 0);
      response.end("ok");
    });
    for (let call = 0; call < 3; call += 1) {
      const response = await nodeHttpFetch(url, { method: "POST", body: "{}" });
      expect(await response.text()).toBe("ok");
    }
    expect(ports).toHaveLength(3);
    expect(new Set(ports).size).toBe(1);
  });

  it("waits out a provider silent for longer than an idle connection is kept", async () => {
    const ports: number[] = [];
    const { url, requests } = await serve((request, _, response) => {
      ports.push(request.socket.remotePort ?? 0);
      if (request.url === "/quick") {
        response.end("ok");
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: thinking\n\n");
      // Reasoning models can pause this long mid-answer; only idle pooled connections time out.
      setTimeout(() => response.end("data: done\n\n"), 4_500);
    });
    // The slow call reuses the pooled connection of a quick one, whose idle timeout must not apply.
    expect(await (await nodeHttpFetch(`${url}/quick`)).text()).toBe("ok");
    const response = await nodeHttpFetch(`${url}/slow`, { method: "POST", body: "{}" });
    expect(await response.text()).toBe("data: thinking\n\ndata: done\n\n");
    expect(requests.map((request) => request.path)).toEqual(["/quick", "/slow"]);
    expect(ports[1]).toBe(ports[0]);
  }, 15_000);

  it("leaves what is not an http(s) URL with a string or byte body to the global fetch", async () => {
    const response = await nodeHttpFetch("data:text/plain,from%20fetch");
    expect(await response.text()).toBe("from fetch");
  });
});

describe("listenToBody", () => {
  it("hands over each chunk as the server sends it, then the end", async () => {
    const { url } = await serve((_, __, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      setTimeout(() => response.write("data: two\n\n"), 30);
      setTimeout(() => response.end("data: three\n\n"), 60);
    });
    const response = await nodeHttpFetch(url);
    const { chunks, outcome, listener } = recordingListener();
    expect(listenToBody(response, listener)).toBeDefined();
    expect(await outcome).toEqual({ ended: true });
    expect(chunks).toEqual(["data: one\n\n", "data: two\n\n", "data: three\n\n"]);
  });

  it("claims a body once: a second listener, and the response's own stream, get nothing", async () => {
    const { url } = await serve((_, __, response) => response.end("the body"));
    const response = await nodeHttpFetch(url);
    const first = recordingListener();
    expect(listenToBody(response, first.listener)).toBeDefined();
    expect(listenToBody(response, recordingListener().listener)).toBeUndefined();
    expect(await response.text()).toBe("");
    await first.outcome;
    expect(first.chunks.join("")).toBe("the body");
  });

  it("is not offered once the response's stream was read, nor for another fetch's response", async () => {
    const { url } = await serve((_, __, response) => response.end("the body"));
    const read = await nodeHttpFetch(url);
    expect(await read.text()).toBe("the body");
    expect(listenToBody(read, recordingListener().listener)).toBeUndefined();
    const fromFetch = await globalThis.fetch(url);
    expect(listenToBody(fromFetch, recordingListener().listener)).toBeUndefined();
    await fromFetch.body?.cancel();
  });

  it("tells the listener the signal's reason when aborted", async () => {
    const { url } = await serveOpenStream();
    const controller = new AbortController();
    const response = await nodeHttpFetch(url, { signal: controller.signal });
    const { chunks, outcome, listener } = recordingListener();
    listenToBody(response, listener);
    while (chunks.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await outcome).toMatchObject({ ended: false, error: { name: "AbortError" } });
  });

  it("hangs up when the listener cancels", async () => {
    const { url, closed } = await serveOpenStream();
    const response = await nodeHttpFetch(url);
    const flow = listenToBody(response, recordingListener().listener);
    flow?.cancel();
    await closed;
  });
});
