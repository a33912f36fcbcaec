import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TestJsonServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  origin: string;
  requests: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** For tests: a real HTTP server on a random loopback port answering with `handle`. */
export async function startTestJsonServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TestJsonServer> {
  const requests: TestJsonServer["requests"] = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? "", authorization: request.headers.authorization });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `body` as a JSON response. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
