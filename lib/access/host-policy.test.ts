import { describe, expect, it } from "vitest";
import { createHostPolicy, isAllowedHost, isOwnOrigin, resolveRequestHost } from "./host-policy";

const headers = (values: Record<string, string>) => new Headers(values);

describe("host policy", () => {
  const loopbackOnly = createHostPolicy({});

  it("answers for loopback names on any port, and nothing else by default", () => {
    for (const host of [
      "127.0.0.1:3000",
      "localhost:3000",
      "[::1]:3000",
      "LOCALHOST",
      "127.0.0.1",
    ]) {
      expect(isAllowedHost(loopbackOnly, host)).toBe(true);
    }
    for (const host of [
      "rebind.invalid:3000",
      "127.0.0.1.nip.io:3000",
      "",
      "evil.example",
      "a b",
    ]) {
      expect(isAllowedHost(loopbackOnly, host)).toBe(false);
    }
    expect(isAllowedHost(loopbackOnly, null)).toBe(false);
  });

  it("adds PATCHWORK_PUBLIC_URL's host and PATCHWORK_ALLOWED_HOSTS (with or without port)", () => {
    const policy = createHostPolicy({
      publicUrl: "https://builder.example.com",
      allowedHosts: "intranet.local, box.lan:8080",
    });
    expect(isAllowedHost(policy, "builder.example.com")).toBe(true);
    expect(isAllowedHost(policy, "intranet.local:3000")).toBe(true);
    expect(isAllowedHost(policy, "box.lan:8080")).toBe(true);
    expect(isAllowedHost(policy, "box.lan:9090")).toBe(false);
    expect(isAllowedHost(policy, "other.example.com")).toBe(false);
  });

  it("believes X-Forwarded-Host only from a trusted proxy", () => {
    const policy = createHostPolicy({
      publicUrl: "https://builder.example.com",
      trustedProxies: "10.0.0.5",
    });
    const forwarded = headers({
      host: "127.0.0.1:3000",
      "x-forwarded-host": "builder.example.com",
      "x-forwarded-proto": "https",
    });
    expect(
      resolveRequestHost(policy, {
        headers: forwarded,
        peerAddress: "::ffff:10.0.0.5",
        protocol: "http",
      }),
    ).toEqual({ host: "builder.example.com", protocol: "https" });
    expect(
      resolveRequestHost(policy, {
        headers: forwarded,
        peerAddress: "127.0.0.1",
        protocol: "http",
      }),
    ).toEqual({ host: "127.0.0.1:3000", protocol: "http" });
    expect(
      resolveRequestHost(policy, { headers: forwarded, peerAddress: null, protocol: "http" }),
    ).toEqual({ host: "127.0.0.1:3000", protocol: "http" });
  });

  it("calls an origin ours only when it is the allowed host and scheme the request came in on", () => {
    const requestHost = { host: "127.0.0.1:3000", protocol: "http" };
    expect(isOwnOrigin(loopbackOnly, "http://127.0.0.1:3000", requestHost)).toBe(true);
    expect(isOwnOrigin(loopbackOnly, "http://127.0.0.1:5173", requestHost)).toBe(false);
    expect(isOwnOrigin(loopbackOnly, "https://127.0.0.1:3000", requestHost)).toBe(false);
    expect(isOwnOrigin(loopbackOnly, "null", requestHost)).toBe(false);
    const rebound = { host: "rebind.invalid:3000", protocol: "http" };
    expect(isOwnOrigin(loopbackOnly, "http://rebind.invalid:3000", rebound)).toBe(false);
  });
});
