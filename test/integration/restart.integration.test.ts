import { afterAll, describe, expect, it } from "vitest";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";

describe("persistence across a restart (PGlite data dir)", () => {
  let server: PatchworkServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps apps, revisions and the published pin after the server stops and starts again", async () => {
    const dataDir = temporaryDataDir("restart");
    server = await startPatchworkServer({ env: { PATCHWORK_DATA_DIR: dataDir } });
    const { body } = await api(server, "/api/apps", { method: "POST", body: { name: "Durable" } });
    const app = body.app;
    const file = (await api(server, `/api/apps/${app.id}/files/src/App.tsx`)).body
      .content as string;
    await api(server, `/api/apps/${app.id}/files/src/App.tsx`, {
      method: "PUT",
      body: {
        content: `${file}\n// saved before restart\n`,
        base_revision_id: app.draft_revision_id,
      },
    });
    await api(server, `/api/apps/${app.id}/publish`, { method: "POST" });
    await server.stop();

    server = await startPatchworkServer({ env: { PATCHWORK_DATA_DIR: dataDir } });
    const reloaded = await api(server, `/api/apps/${app.id}`);
    expect(reloaded.body.app).toMatchObject({ name: "Durable", public_path: `/p/${app.slug}` });
    expect((await api(server, `/api/apps/${app.id}/revisions`)).body.revisions).toHaveLength(2);
    expect((await api(server, `/api/apps/${app.id}/files/src/App.tsx`)).body.content).toContain(
      "// saved before restart",
    );
    expect((await fetch(`${server.url}/p/${app.slug}`)).status).toBe(200);
  });
});
