import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript module without declarations (it runs before Next loads).
import { installConnectionGuard, isLoopbackAddress } from "./connection-guard.mjs";

const exposed: string[] = [];

describe("connection guard", () => {
  let server: http.Server;
  let url: string;
  const previousToken = process.env.PATCHWORK_AUTH_TOKEN;

  beforeAll(async () => {
    delete process.env.PATCHWORK_AUTH_TOKEN;
    installConnectionGuard({ onExposedListen: (message: string) => exposed.push(message) });
    server = http.createServer((request, response) => {
      response.end(
        JSON.stringify({
          peer: request.headers["x-patchwork-peer-address"],
          local: request.headers["x-patchwork-local-address"],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    process.env.PATCHWORK_AUTH_TOKEN = previousToken;
    await new Promise((resolve) => server.close(resolve));
  });

  it("lets a loopback listener be", () => {
    expect(server.listening).toBe(true);
    expect(exposed).toEqual([]);
  });

  it("tags requests with the socket's addresses and drops a client's own copies", async () => {
    const response = await fetch(url, {
      headers: { "x-patchwork-peer-address": "10.9.9.9", "x-patchwork-local-address": "10.9.9.9" },
    });
    expect(await response.json()).toEqual({ peer: "127.0.0.1", local: "127.0.0.1" });
  });

  it("closes a server that reports a non-loopback address without a token, and says why", async () => {
    const other = http.createServer();
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    // What 0.0.0.0 would report, without binding beyond loopback in a test.
    other.address = () => ({ address: "0.0.0.0", family: "IPv4", port: 1 });
    other.emit("listening");
    expect(exposed).toHaveLength(1);
    expect(exposed[0]).toContain("0.0.0.0");
    expect(exposed[0]).toContain("PATCHWORK_AUTH_TOKEN");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(other.listening).toBe(false);
  });

  it("knows loopback addresses", () => {
    expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("0.0.0.0")).toBe(false);
    expect(isLoopbackAddress("::")).toBe(false);
  });
});
