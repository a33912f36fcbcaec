import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterHeading } from "@/lib/workspace/starter-template";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";
import { suiteDatabaseUrl } from "@/test/support/scratch-postgres";

const targets = [
  { name: "pglite", env: {} as Record<string, string> },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: "postgres", env: { DATABASE_URL: suiteDatabaseUrl(process.env.TEST_DATABASE_URL) } }]
    : []),
];

function expectError(response: { status: number; body: any }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({
    error: expect.objectContaining({ code, message: expect.any(String) }),
  });
}

describe.each(targets)("HTTP API on $name", (target) => {
  let server: PatchworkServer;
  beforeAll(async () => {
    server = await startPatchworkServer({ env: target.env });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const origin = () => ({ origin: server.url });

  it("answers health with the database kind", async () => {
    const response = await api(server, "/api/health");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, database: target.name });
  });

  it("creates, lists, renames and deletes apps", async () => {
    const created = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "Landing page" },
      headers: origin(),
    });
    expect(created.status).toBe(201);
    const app = created.body.app;
    expect(app).toMatchObject({
      name: "Landing page",
      published_revision_id: null,
      public_path: null,
    });
    expect(app.slug).toMatch(/^landing-page-[0-9a-f]{6}$/);

    const listed = await api(server, "/api/apps");
    expect(listed.body.apps.map((item: { id: string }) => item.id)).toContain(app.id);

    const renamed = await api(server, `/api/apps/${app.id}`, {
      method: "PATCH",
      body: { name: "Renamed" },
      headers: origin(),
    });
    expect(renamed.body.app.name).toBe("Renamed");

    expectError(
      await api(server, `/api/apps/${app.id}`, {
        method: "PATCH",
        body: { name: "" },
        headers: origin(),
      }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await api(server, `/api/apps/${app.id}`, {
        method: "PATCH",
        body: { name: "x", extra: 1 },
        headers: origin(),
      }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await api(server, "/api/apps", { method: "POST", body: "{not json", headers: origin() }),
      400,
      "VALIDATION_FAILED",
    );

    const deleted = await fetch(`${server.url}/api/apps/${app.id}`, {
      method: "DELETE",
      headers: origin(),
    });
    expect(deleted.status).toBe(204);
    expectError(await api(server, `/api/apps/${app.id}`), 404, "NOT_FOUND");
    expectError(await api(server, "/api/apps/not-a-uuid"), 400, "VALIDATION_FAILED");
    expectError(
      await api(server, "/api/apps/00000000-0000-4000-8000-000000000000"),
      404,
      "NOT_FOUND",
    );
  });

  it("reads the starter's files, saves an edit as a revision, refuses a stale base", async () => {
    const { body } = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "Files" },
      headers: origin(),
    });
    const app = body.app;
    const tree = await api(server, `/api/apps/${app.id}/files`);
    expect(tree.body.revision_id).toBe(app.draft_revision_id);
    expect(tree.body.files.map((file: { path: string }) => file.path)).toEqual(
      expect.arrayContaining(["index.html", "src/App.tsx", "src/index.css", "src/main.tsx"]),
    );
    const file = await api(server, `/api/apps/${app.id}/files/src/App.tsx`);
    expect(file.body).toMatchObject({ path: "src/App.tsx", binary: false });
    expect(file.body.content).toContain(starterHeading);

    const newContent = file.body.content.replace(starterHeading, "Saved over HTTP");
    const saved = await api(server, `/api/apps/${app.id}/files/src/App.tsx`, {
      method: "PUT",
      body: { content: newContent, base_revision_id: app.draft_revision_id },
      headers: origin(),
    });
    expect(saved.status).toBe(201);
    expect(saved.body.revision).toMatchObject({
      source: "manual",
      parent_revision_id: app.draft_revision_id,
    });
    expect((await api(server, `/api/apps/${app.id}/files/src/App.tsx`)).body.content).toBe(
      newContent,
    );
    // The old revision still reads as it was.
    const old = await api(
      server,
      `/api/apps/${app.id}/files/src/App.tsx?revision=${app.draft_revision_id}`,
    );
    expect(old.body.content).toContain(starterHeading);

    expectError(
      await api(server, `/api/apps/${app.id}/files/src/App.tsx`, {
        method: "PUT",
        body: { content: "stale", base_revision_id: app.draft_revision_id },
        headers: origin(),
      }),
      409,
      "REVISION_CONFLICT",
    );
    expectError(await api(server, `/api/apps/${app.id}/files/src/Missing.tsx`), 404, "NOT_FOUND");
    expectError(
      await api(server, `/api/apps/${app.id}/files/src/App.tsx`, {
        method: "PUT",
        body: { content: "x" },
        headers: origin(),
      }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await api(server, `/api/apps/${app.id}/files/big.txt`, {
        method: "PUT",
        body: { content: "x".repeat(1024 * 1024 + 10), base_revision_id: saved.body.revision.id },
        headers: origin(),
      }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    const traversal = await api(server, `/api/apps/${app.id}/files/..%2F..%2Fetc%2Fpasswd`);
    expect([400, 404]).toContain(traversal.status);
    expect(traversal.body.error.code).toMatch(/VALIDATION_FAILED|NOT_FOUND/);
  });

  it("lists revisions, diffs them, restores forward, and checkpoints", async () => {
    const { body } = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "History" },
      headers: origin(),
    });
    const app = body.app;
    const original = (await api(server, `/api/apps/${app.id}/files/src/App.tsx`)).body
      .content as string;
    const edited = original.replace(starterHeading, "Edited heading");
    const manualCheckpoint = await api(server, `/api/apps/${app.id}/coding-agent/checkpoints`, {
      method: "POST",
      body: { label: "before edit" },
      headers: origin(),
    });
    expect(manualCheckpoint.status).toBe(201);
    const saved = await api(server, `/api/apps/${app.id}/files/src/App.tsx`, {
      method: "PUT",
      body: { content: edited, base_revision_id: app.draft_revision_id },
      headers: origin(),
    });
    const revisions = await api(server, `/api/apps/${app.id}/revisions`);
    expect(revisions.body.revisions.map((revision: { source: string }) => revision.source)).toEqual(
      ["manual", "template"],
    );
    expect(revisions.body.draft_revision_id).toBe(saved.body.revision.id);

    const diff = await api(server, `/api/apps/${app.id}/revisions/${saved.body.revision.id}/diff`);
    expect(diff.body.files).toHaveLength(1);
    expect(diff.body.files[0]).toMatchObject({
      path: "src/App.tsx",
      status: "modified",
      additions: 1,
      deletions: 1,
    });
    expect(diff.body.files[0].patch).toContain("+");
    expect(diff.body.files[0].patch).toContain("Edited heading");
    const against = await api(
      server,
      `/api/apps/${app.id}/revisions/${app.draft_revision_id}/diff?against=${saved.body.revision.id}`,
    );
    expect(against.body.files[0].patch).toContain(`+`);
    expectError(
      await api(server, `/api/apps/${app.id}/revisions/${app.draft_revision_id}/diff?against=nope`),
      400,
      "VALIDATION_FAILED",
    );

    const checkpoints = await api(server, `/api/apps/${app.id}/coding-agent/checkpoints`);
    expect(checkpoints.body.checkpoints).toHaveLength(1);
    expect(checkpoints.body.checkpoints[0]).toMatchObject({
      kind: "manual",
      label: "before edit",
      revision_id: app.draft_revision_id,
    });

    const restored = await api(
      server,
      `/api/apps/${app.id}/coding-agent/checkpoints/${manualCheckpoint.body.checkpoint.id}/restore`,
      {
        method: "POST",
        headers: origin(),
      },
    );
    expect(restored.status).toBe(201);
    expect(restored.body.revision).toMatchObject({
      source: "restore",
      parent_revision_id: saved.body.revision.id,
    });
    expect((await api(server, `/api/apps/${app.id}/files/src/App.tsx`)).body.content).toBe(
      original,
    );
    expect((await api(server, `/api/apps/${app.id}/revisions`)).body.revisions).toHaveLength(3);

    const again = await api(
      server,
      `/api/apps/${app.id}/revisions/${saved.body.revision.id}/restore`,
      { method: "POST", headers: origin() },
    );
    expect(again.status).toBe(201);
    expect((await api(server, `/api/apps/${app.id}/files/src/App.tsx`)).body.content).toBe(edited);
    expectError(
      await api(
        server,
        `/api/apps/${app.id}/coding-agent/checkpoints/00000000-0000-4000-8000-000000000000/restore`,
        {
          method: "POST",
          headers: origin(),
        },
      ),
      404,
      "NOT_FOUND",
    );
  });

  it("builds the preview, publishes, re-publishes and unpublishes", async () => {
    const { body } = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "Publish me" },
      headers: origin(),
    });
    const app = body.app;
    const status = await api(server, `/api/apps/${app.id}/preview`);
    expect(status.body).toMatchObject({
      revision_id: app.draft_revision_id,
      ok: true,
      diagnostics: [],
    });

    const preview = await fetch(`${server.url}/preview/${app.id}`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-security-policy")).toContain("sandbox");
    expect(await preview.text()).toContain(starterHeading);

    expectError(await api(server, `/p/${app.slug}`), 404, "NOT_FOUND");
    const published = await api(server, `/api/apps/${app.id}/publish`, {
      method: "POST",
      headers: origin(),
    });
    expect(published.body.app).toMatchObject({
      published_revision_id: app.draft_revision_id,
      public_path: `/p/${app.slug}`,
    });
    const page = await fetch(`${server.url}/p/${app.slug}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("sandbox");
    expect(await page.text()).toContain(starterHeading);

    // Editing the draft does not change the published app until it is published again.
    const content = (
      await api(server, `/api/apps/${app.id}/files/src/App.tsx`)
    ).body.content.replace(starterHeading, "Version two");
    const saved = await api(server, `/api/apps/${app.id}/files/src/App.tsx`, {
      method: "PUT",
      body: { content, base_revision_id: app.draft_revision_id },
      headers: origin(),
    });
    expect(await (await fetch(`${server.url}/p/${app.slug}`)).text()).toContain(starterHeading);
    await api(server, `/api/apps/${app.id}/publish`, { method: "POST", headers: origin() });
    expect(await (await fetch(`${server.url}/p/${app.slug}`)).text()).toContain("Version two");
    expect((await api(server, `/api/apps/${app.id}`)).body.app.published_revision_id).toBe(
      saved.body.revision.id,
    );

    const unpublished = await api(server, `/api/apps/${app.id}/publish`, {
      method: "DELETE",
      headers: origin(),
    });
    expect(unpublished.body.app.published_revision_id).toBeNull();
    expect((await fetch(`${server.url}/p/${app.slug}`)).status).toBe(404);
  });

  it("reports a syntax error as a diagnostic with file and line", async () => {
    const { body } = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "Broken" },
      headers: origin(),
    });
    const app = body.app;
    const saved = await api(server, `/api/apps/${app.id}/files/src/App.tsx`, {
      method: "PUT",
      body: {
        content: "export default function App() {\n  return <h1>unclosed\n}\n",
        base_revision_id: app.draft_revision_id,
      },
      headers: origin(),
    });
    const status = await api(
      server,
      `/api/apps/${app.id}/preview?revision=${saved.body.revision.id}`,
    );
    expect(status.body.ok).toBe(false);
    expect(status.body.diagnostics[0]).toMatchObject({
      file: "src/App.tsx",
      severity: "error",
      line: expect.any(Number),
    });
  });

  it("refuses mutations from other origins, the preview's null origin included", async () => {
    // A name of its own: other suites create apps in the same Postgres database meanwhile, so
    // counting every app would be flaky.
    const forgedName = `forged ${randomUUID()}`;
    for (const badOrigin of ["null", "https://evil.example", "http://127.0.0.1:1"]) {
      const response = await fetch(`${server.url}/api/apps`, {
        method: "POST",
        headers: { origin: badOrigin, "content-type": "text/plain" },
        body: JSON.stringify({ name: forgedName }),
      });
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe("FORBIDDEN_ORIGIN");
    }
    const read = await fetch(`${server.url}/api/apps`, { headers: { origin: "null" } });
    expect(read.status).toBe(403);
    const names = (await api(server, "/api/apps")).body.apps.map(
      (app: { name: string }) => app.name,
    );
    expect(names).not.toContain(forgedName);
    // No Origin header (curl, scripts) is judged by the token rules alone: allowed here.
    const scripted = await api(server, "/api/apps", {
      method: "POST",
      body: { name: "from a script" },
    });
    expect(scripted.status).toBe(201);
  });
});
