import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@/test/support/coding-agent-runs";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";

// One real package from the npm registry, end to end through the server: the machine reaches
// the registry (CI runs on the same kind), and dayjs has no dependencies and no install script.
const dayjsApp = `import dayjs from "dayjs";

export function App() {
  return <h1>Launch day: {dayjs("2026-12-01").format("D MMMM YYYY")}</h1>;
}
`;

describe("an app that uses a package from the npm registry", () => {
  let server: PatchworkServer;
  const dataDir = temporaryDataDir("npm-packages");

  beforeAll(async () => {
    server = await startPatchworkServer({ env: { PATCHWORK_DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function save(appId: string, file: string, content: string) {
    const app = (await api(server, `/api/apps/${appId}`)).body.app;
    const saved = await api(server, `/api/apps/${appId}/files/${file}`, {
      method: "PUT",
      body: { content, base_revision_id: app.draft_revision_id },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    return saved.body.revision.id as string;
  }

  it("installs it on the next build, into the shared cache, and the preview bundles it", async () => {
    const app = await createApp(server, "Registry package");
    await save(app.id, "package.json", JSON.stringify({ dependencies: { dayjs: "1.11.13" } }));
    const revision = await save(app.id, "src/App.tsx", dayjsApp);

    const startedAt = performance.now();
    const status = await api(server, `/api/apps/${app.id}/preview?revision=${revision}`);
    const coldMs = performance.now() - startedAt;
    expect(status.body.diagnostics).toEqual([]);
    expect(status.body.ok).toBe(true);
    const document = await fetch(`${server.url}/preview/${app.id}?revision=${revision}`);
    const html = await document.text();
    expect(html).toContain("D MMMM YYYY");

    const cache = path.join(dataDir, "packages");
    const entries = readdirSync(cache).filter((name) => !name.startsWith("."));
    expect(entries).toHaveLength(1);
    expect(existsSync(path.join(cache, entries[0], "node_modules", "dayjs", "package.json"))).toBe(
      true,
    );

    // A second app with the same dependency set builds from the cache.
    const other = await createApp(server, "Same packages");
    await save(other.id, "package.json", JSON.stringify({ dependencies: { dayjs: "1.11.13" } }));
    const otherRevision = await save(other.id, "src/App.tsx", dayjsApp);
    const warmStartedAt = performance.now();
    const warm = await api(server, `/api/apps/${other.id}/preview?revision=${otherRevision}`);
    const warmMs = performance.now() - warmStartedAt;
    expect(warm.body.ok).toBe(true);
    expect(readdirSync(cache).filter((name) => !name.startsWith("."))).toHaveLength(1);
    console.log(
      `[npm packages] first build with dayjs: cold ${Math.round(coldMs)} ms, warm ${Math.round(warmMs)} ms`,
    );
  });

  it("names a package the registry does not have", async () => {
    const app = await createApp(server, "Missing package");
    await save(
      app.id,
      "package.json",
      JSON.stringify({ dependencies: { "patchwork-no-such-package-4f1c2a": "^1.0.0" } }),
    );
    const status = await api(server, `/api/apps/${app.id}/preview`);
    expect(status.body.ok).toBe(false);
    expect(status.body.diagnostics[0].file).toBe("package.json");
    expect(status.body.diagnostics[0].message).toContain(
      '"patchwork-no-such-package-4f1c2a@^1.0.0"',
    );
    expect(status.body.diagnostics[0].message).toMatch(/404|not found/i);
  });
});
