import { spawnSync } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTargets } from "@/test/support/coding-agent-runs";
import {
  api,
  freePort,
  type PatchworkServer,
  startPatchworkServer,
} from "@/test/support/patchwork-server";
import { createScratchDatabase } from "@/test/support/scratch-postgres";

const root = path.resolve(import.meta.dirname, "../..");
const token = "hardening-token-0123456789";

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with headers fetch will not send as given (Host), over a plain socket to 127.0.0.1. */
function raw(
  server: PatchworkServer,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

const errorCode = (response: RawResponse) => JSON.parse(response.body).error.code as string;

describe("the builder answers only for its own hosts (DNS rebinding)", () => {
  let server: PatchworkServer;
  let proxied: PatchworkServer;
  beforeAll(async () => {
    [server, proxied] = await Promise.all([
      startPatchworkServer({ env: { PATCHWORK_ALLOWED_HOSTS: "builder.test" } }),
      startPatchworkServer({
        env: {
          PATCHWORK_PUBLIC_URL: "https://public.test",
          PATCHWORK_TRUSTED_PROXIES: "127.0.0.1",
        },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), proxied?.stop()]);
  });

  it("refuses a rebound host name with 421, for reads and writes alike", async () => {
    const host = `rebind.invalid:${server.port}`;
    const create = await raw(server, {
      method: "POST",
      path: "/api/apps",
      headers: { host, origin: `http://${host}`, "content-type": "text/plain" },
      body: JSON.stringify({ name: "rebound" }),
    });
    expect(create.status).toBe(421);
    expect(errorCode(create)).toBe("MISDIRECTED_REQUEST");
    const list = await raw(server, { path: "/api/apps", headers: { host } });
    expect(list.status).toBe(421);
    const page = await raw(server, { path: "/", headers: { host } });
    expect(page.status).toBe(421);
    const remove = await raw(server, {
      method: "DELETE",
      path: "/api/apps/00000000-0000-4000-8000-000000000000",
      headers: { host, origin: `http://${host}` },
    });
    expect(remove.status).toBe(421);
  });

  it("still serves health and published apps under any host", async () => {
    const host = "any.example:80";
    expect((await raw(server, { path: "/api/health", headers: { host } })).status).toBe(200);
    const published = await raw(server, { path: "/p/no-such-app", headers: { host } });
    expect(published.status).toBe(404);
  });

  it("answers for PATCHWORK_ALLOWED_HOSTS, and trusts that origin for writes", async () => {
    const host = `builder.test:${server.port}`;
    const create = await raw(server, {
      method: "POST",
      path: "/api/apps",
      headers: { host, origin: `http://${host}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "allowed host" }),
    });
    expect(create.status).toBe(201);
    // Another loopback port is another site: its pages may not write here.
    const otherPort = await raw(server, {
      method: "POST",
      path: "/api/apps",
      headers: { origin: "http://127.0.0.1:5173", "content-type": "application/json" },
      body: JSON.stringify({ name: "other port" }),
    });
    expect(otherPort.status).toBe(403);
  });

  it("ignores X-Forwarded-Host from a peer that is not a trusted proxy", async () => {
    const response = await raw(server, {
      method: "POST",
      path: "/api/apps",
      headers: {
        "x-forwarded-host": "rebind.invalid",
        "x-forwarded-proto": "http",
        origin: "http://rebind.invalid",
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "forwarded" }),
    });
    expect(response.status).toBe(403);
    expect(errorCode(response)).toBe("FORBIDDEN_ORIGIN");
  });

  it("believes X-Forwarded-Host and -Proto from PATCHWORK_TRUSTED_PROXIES", async () => {
    const forwarded = {
      "x-forwarded-host": "public.test",
      "x-forwarded-proto": "https",
      "content-type": "application/json",
    };
    const create = await raw(proxied, {
      method: "POST",
      path: "/api/apps",
      headers: { ...forwarded, origin: "https://public.test" },
      body: JSON.stringify({ name: "through the proxy" }),
    });
    expect(create.status).toBe(201);
    const spoofedPeer = await raw(proxied, {
      path: "/api/apps",
      headers: { "x-forwarded-host": "rebind.invalid", "x-patchwork-peer-address": "10.0.0.1" },
    });
    // The peer really is 127.0.0.1 (trusted), so its forwarded host is judged: not ours.
    expect(spoofedPeer.status).toBe(421);
  });
});

describe("the start-up guard checks the address asked for, whatever the arguments", () => {
  for (const hostArguments of [
    ["--hostname", "0.0.0.0"],
    ["-H", "0.0.0.0"],
    ["--hostname=0.0.0.0"],
  ]) {
    it(`refuses \`npm start -- ${hostArguments.join(" ")}\` without a token`, async () => {
      const port = await freePort();
      const result = spawnSync(process.execPath, ["scripts/start.mjs", "start", ...hostArguments], {
        cwd: root,
        env: { ...process.env, PORT: String(port), PATCHWORK_AUTH_TOKEN: "", HOST: "" },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("PATCHWORK_AUTH_TOKEN");
      expect(result.stderr).toContain("0.0.0.0");
    });
  }
});

describe("every /api answer uses the envelope", () => {
  let server: PatchworkServer;
  beforeAll(async () => {
    server = await startPatchworkServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers malformed percent-encoding with 400 VALIDATION_FAILED", async () => {
    for (const pathname of ["/p/%C0%AE", "/api/apps/%FF", "/api/apps/%E0%A4%A"]) {
      const response = await raw(server, { path: pathname });
      expect(response.status, pathname).toBe(400);
      expect(errorCode(response), pathname).toBe("VALIDATION_FAILED");
    }
    expect(server.output()).not.toMatch(/URIError|DecodeError/);
  });

  it("answers an unknown API path with a JSON 404", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const response = await api(server, "/api/no-such-route/x", {
        method,
        headers: { origin: server.url },
      });
      expect(response.status, method).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
    }
  });

  it("answers an unsupported method with 405, the envelope and Allow", async () => {
    const response = await api(server, "/api/health", {
      method: "DELETE",
      headers: { origin: server.url },
    });
    expect(response.status).toBe(405);
    expect(response.body.error.code).toBe("METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const apps = await api(server, "/api/apps", { method: "PUT", headers: { origin: server.url } });
    expect(apps.status).toBe(405);
    expect(apps.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
  });

  it("refuses SSE positions beyond the event range with 400 before touching the database", async () => {
    const created = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "sse ids" },
      headers: { origin: server.url },
    });
    const base = `/api/apps/${created.body.app.id}/coding-agent/runs/00000000-0000-4000-8000-000000000000/stream`;
    const attempts = [
      await api(server, base, { headers: { "last-event-id": "2147483648" } }),
      await api(server, base, { headers: { "last-event-id": "-1" } }),
      await api(server, base, { headers: { "last-event-id": "12abc" } }),
      await api(server, `${base}?after=99999999999`),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
    }
    // In range, the same request reaches the lookup (the run does not exist).
    expect((await api(server, `${base}?after=5`)).status).toBe(404);
    expect(server.output()).not.toMatch(/out of range|22003/);
  });

  it("keeps builder pages out of frames and sniffing, and leaves the preview framable", async () => {
    const created = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "headers" },
      headers: { origin: server.url },
    });
    for (const pathname of ["/", `/apps/${created.body.app.id}`, "/signin", "/api/apps"]) {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get("x-frame-options"), pathname).toBe("DENY");
      expect(response.headers.get("content-security-policy"), pathname).toContain(
        "frame-ancestors 'none'",
      );
      expect(response.headers.get("x-content-type-options"), pathname).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), pathname).toBe("same-origin");
    }
    const preview = await fetch(`${server.url}/preview/${created.body.app.id}`);
    expect(preview.status).toBe(200);
    // The builder frames its preview from its own origin; only the builder's own pages are DENY.
    expect(preview.headers.get("x-frame-options")).not.toBe("DENY");
    expect(preview.headers.get("content-security-policy")).toContain("sandbox");
    expect(preview.headers.get("content-security-policy")).not.toContain("frame-ancestors 'none'");
  });
});

describe.each(runTargets())("sessions and sign-in on $name", (target) => {
  let server: PatchworkServer;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    // "Sign out everywhere" reaches every session of its database: give it one of its own.
    let env: Record<string, string> = {};
    if (target.name === "postgres") {
      const scratch = await createScratchDatabase("sessions");
      if (!scratch) throw new Error("TEST_DATABASE_URL is set for the postgres target");
      drop = scratch.drop;
      env = { DATABASE_URL: scratch.url };
    }
    server = await startPatchworkServer({ env: { ...env, PATCHWORK_AUTH_TOKEN: token } });
  });
  afterAll(async () => {
    await server?.stop();
    await drop?.();
  });

  async function signIn(): Promise<string> {
    const response = await api(server, "/api/auth/signin", {
      method: "POST",
      body: { token },
      headers: { origin: server.url },
    });
    expect(response.status).toBe(200);
    return (response.headers.get("set-cookie") ?? "").split(";")[0];
  }

  const appsWith = async (cookie: string) =>
    (await api(server, "/api/apps", { headers: { cookie } })).status;

  it("revokes this browser's session on sign-out, and only it", async () => {
    const [first, second] = [await signIn(), await signIn()];
    expect(await appsWith(first)).toBe(200);
    const signOut = await api(server, "/api/auth/signout", {
      method: "POST",
      body: {},
      headers: { cookie: first, origin: server.url },
    });
    expect(signOut.status).toBe(200);
    expect(signOut.headers.get("set-cookie")).toContain("Max-Age=0");
    // The old cookie value no longer works even if a browser (or a thief) kept it.
    expect(await appsWith(first)).toBe(401);
    expect(await appsWith(second)).toBe(200);
  });

  it("revokes every session on 'sign out everywhere'", async () => {
    const [first, second] = [await signIn(), await signIn()];
    const everywhere = await api(server, "/api/auth/signout", {
      method: "POST",
      body: { everywhere: true },
      headers: { cookie: first, origin: server.url },
    });
    expect(everywhere.status).toBe(200);
    expect(everywhere.body.sessions_revoked).toBeGreaterThanOrEqual(2);
    expect(await appsWith(first)).toBe(401);
    expect(await appsWith(second)).toBe(401);
    expect(await appsWith(await signIn())).toBe(200);
  });

  it("does not accept a made-up session cookie", async () => {
    expect(await appsWith(`patchwork_session=${"A".repeat(43)}`)).toBe(401);
  });

  it("throttles wrong tokens with 429 and Retry-After, the right token included", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof api>> | undefined;
    for (let attempt = 0; attempt < 12; attempt += 1) {
      last = await api(server, "/api/auth/signin", {
        method: "POST",
        body: { token: `wrong-${attempt}` },
        headers: { origin: server.url },
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(last?.body.error.code).toBe("RATE_LIMITED");
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    const right = await api(server, "/api/auth/signin", {
      method: "POST",
      body: { token },
      headers: { origin: server.url },
    });
    expect(right.status).toBe(429);
    expect(server.output()).not.toContain(token);
  });
});
