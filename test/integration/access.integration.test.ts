import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";

const root = path.resolve(import.meta.dirname, "../..");
const token = "test-token-0123456789abcdef";

describe("start-up bind rules", () => {
  it("refuses a non-loopback HOST without PATCHWORK_AUTH_TOKEN and says why", () => {
    const result = spawnSync(process.execPath, ["scripts/start.mjs", "start"], {
      cwd: root,
      env: { ...process.env, HOST: "0.0.0.0", PORT: "1", PATCHWORK_AUTH_TOKEN: "" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PATCHWORK_AUTH_TOKEN");
    expect(result.stderr).toContain("HOST=0.0.0.0");
  });

  it("refuses a token that is too short", () => {
    const result = spawnSync(process.execPath, ["scripts/start.mjs", "start"], {
      cwd: root,
      env: { ...process.env, HOST: "0.0.0.0", PORT: "1", PATCHWORK_AUTH_TOKEN: "short" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("at least 16 characters");
  });
});

describe("with PATCHWORK_AUTH_TOKEN set", () => {
  let server: PatchworkServer;
  beforeAll(async () => {
    server = await startPatchworkServer({ env: { PATCHWORK_AUTH_TOKEN: token } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps health public", async () => {
    expect((await api(server, "/api/health")).status).toBe(200);
  });

  it("answers 401 UNAUTHORIZED on the API without credentials", async () => {
    for (const pathname of ["/api/apps", "/api/models", "/api/engines"]) {
      const response = await api(server, pathname);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe("UNAUTHORIZED");
    }
    const wrongBearer = await api(server, "/api/apps", {
      headers: { authorization: "Bearer not-the-token-at-all" },
    });
    expect(wrongBearer.status).toBe(401);
  });

  it("redirects pages to the sign-in page", async () => {
    const response = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toContain("/signin?next=%2F");
    const signIn = await fetch(`${server.url}/signin`);
    expect(signIn.status).toBe(200);
  });

  it("accepts the token as a bearer header", async () => {
    const response = await api(server, "/api/apps", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });

  it("exchanges the token for an httpOnly SameSite session cookie", async () => {
    const wrong = await api(server, "/api/auth/signin", {
      method: "POST",
      body: { token: "nope" },
      headers: { origin: server.url },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const signIn = await api(server, "/api/auth/signin", {
      method: "POST",
      body: { token },
      headers: { origin: server.url },
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^patchwork_session=[^;]+;/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    const session = cookie.split(";")[0];
    const withCookie = await api(server, "/api/apps", { headers: { cookie: session } });
    expect(withCookie.status).toBe(200);
    const forged = await api(server, "/api/apps", {
      headers: { cookie: `${session.slice(0, -2)}xx` },
    });
    expect(forged.status).toBe(401);
  });

  it("still refuses foreign origins even with a valid session", async () => {
    const signIn = await api(server, "/api/auth/signin", {
      method: "POST",
      body: { token },
      headers: { origin: server.url },
    });
    const session = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    const response = await fetch(`${server.url}/api/apps`, {
      method: "POST",
      headers: { cookie: session, origin: "null", "content-type": "text/plain" },
      body: "{}",
    });
    expect(response.status).toBe(403);
  });

  it("never logs the token", () => {
    expect(server.output()).not.toContain(token);
  });
});
