import { unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApp,
  expectErrorEnvelope,
  listRevisions,
  runTargets,
} from "@/test/support/coding-agent-runs";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0xff, 0x80, 0x07]);

describe.each(runTargets())("file operations, export and import over HTTP on $name", (target) => {
  let server: PatchworkServer;
  const origin = () => ({ origin: server.url });
  beforeAll(async () => {
    server = await startPatchworkServer({ env: target.env });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function operate(appId: string, base: string, operations: unknown[]) {
    return api(server, `/api/apps/${appId}/files/operations`, {
      method: "POST",
      body: { base_revision_id: base, operations },
      headers: origin(),
    });
  }

  async function paths(appId: string): Promise<string[]> {
    const listing = await api(server, `/api/apps/${appId}/files`);
    return (listing.body.files as { path: string }[]).map((file) => file.path);
  }

  it("applies a batch of file operations as one manual revision and refuses a stale base", async () => {
    const app = await createApp(server, "Ops");
    const done = await operate(app.id, app.draft_revision_id, [
      { type: "create_folder", path: "src/empty" },
      { type: "create_file", path: "src/lib/util.ts", content: "export {};\n" },
      { type: "upload", path: "public/logo.png", content_base64: png.toString("base64") },
      { type: "rename", from: "src/lib", to: "src/shared" },
    ]);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.revision).toMatchObject({
      source: "manual",
      parent_revision_id: app.draft_revision_id,
    });
    const after = await paths(app.id);
    expect(after).toEqual(
      expect.arrayContaining(["src/empty/.gitkeep", "src/shared/util.ts", "public/logo.png"]),
    );
    expect(after).not.toContain("src/lib/util.ts");
    expectErrorEnvelope(
      await operate(app.id, app.draft_revision_id, [{ type: "delete", path: "src/empty" }]),
      409,
      "REVISION_CONFLICT",
    );
    expectErrorEnvelope(
      await operate(app.id, done.body.revision.id, [{ type: "create_file", path: ".git/config" }]),
      400,
      "VALIDATION_FAILED",
    );
    const deleted = await operate(app.id, done.body.revision.id, [
      { type: "delete", path: "src/empty" },
    ]);
    expect(deleted.status).toBe(201);
    expect(await paths(app.id)).not.toContain("src/empty/.gitkeep");
    const history = await listRevisions(server, app.id);
    expect(history.revisions.filter((revision) => revision.source === "manual")).toHaveLength(2);
  });

  it("exports the draft as a zip and imports it back as an identical app", async () => {
    const app = await createApp(server, "Export me");
    const uploaded = await operate(app.id, app.draft_revision_id, [
      { type: "upload", path: "public/logo.png", content_base64: png.toString("base64") },
    ]);
    expect(uploaded.status).toBe(201);
    const download = await fetch(`${server.url}/api/apps/${app.id}/export?format=zip`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/zip");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.zip"$/);
    const archive = new Uint8Array(await download.arrayBuffer());
    const exported = unzipSync(archive);
    expect(Buffer.from(exported["public/logo.png"]).equals(png)).toBe(true);

    const imported = await fetch(`${server.url}/api/apps/import?name=Imported`, {
      method: "POST",
      headers: { "content-type": "application/zip", ...origin() },
      body: archive,
    });
    expect(imported.status, await imported.clone().text()).toBe(201);
    const copy = (await imported.json()).app as { id: string };
    expect((await paths(copy.id)).sort()).toEqual(Object.keys(exported).sort());
    const history = await listRevisions(server, copy.id);
    expect(history.revisions.map((revision) => revision.source)).toEqual(["import"]);
    const again = unzipSync(
      new Uint8Array(await (await fetch(`${server.url}/api/apps/${copy.id}/export`)).arrayBuffer()),
    );
    for (const [path, bytes] of Object.entries(exported))
      expect(Buffer.from(again[path]).equals(Buffer.from(bytes)), path).toBe(true);

    const gitDownload = await fetch(`${server.url}/api/apps/${app.id}/export?format=git`);
    expect(gitDownload.status).toBe(200);
    expect(gitDownload.headers.get("content-disposition")).toMatch(/\.git\.zip"$/);
    const repository = unzipSync(new Uint8Array(await gitDownload.arrayBuffer()));
    expect(Object.keys(repository).some((file) => file.endsWith(".git/refs/heads/main"))).toBe(
      true,
    );

    const hostile = await fetch(`${server.url}/api/apps/import?name=Hostile`, {
      method: "POST",
      headers: { "content-type": "application/zip", ...origin() },
      body: zipSync({ "evil\u202e.ts": new Uint8Array([1]) }),
    });
    expectErrorEnvelope(
      { status: hostile.status, body: await hostile.json() },
      400,
      "VALIDATION_FAILED",
    );
  });
});
