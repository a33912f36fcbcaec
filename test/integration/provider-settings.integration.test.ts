import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { providerSetting } from "@/db/schema";
import { type ModelServer, modelServerEnvironment, startModelServer } from "@/test/model-server";
import {
  createApp,
  expectErrorEnvelope,
  runTargets,
  startRun,
  waitForRunEnd,
} from "@/test/support/coding-agent-runs";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

const savedKey = "sk-saved-endpoint-key-7f3a9c";
const providersPath = "/api/settings/providers";

/** Every file under a folder, for looking for a key in clear. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(folder, name))
    .filter((file) => statSync(file).isFile());
}

describe.each(runTargets())("provider settings on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;
  const dataDir = temporaryDataDir("providers");

  beforeAll(async () => {
    // The endpoint refuses any other key, as a provider does.
    modelServer = await startModelServer({ port: 0, requireApiKey: savedKey });
    const environment = modelServerEnvironment(modelServer.url);
    server = await startPatchworkServer({
      env: {
        ...environment,
        // No endpoint in the environment: the settings page supplies it.
        OPENAI_COMPATIBLE_BASE_URL: "",
        OPENAI_COMPATIBLE_MODELS: "",
        ...target.env,
        PATCHWORK_DATA_DIR: dataDir,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  it("adds an OpenAI-compatible endpoint that a run uses without a restart, key never shown", async () => {
    const before = await api(server, "/api/models");
    expect(before.body.models.find((model: { id: string }) => model.id === "auto")).toMatchObject({
      available: false,
    });

    const wrong = await api(server, `${providersPath}/compatible/test`, {
      method: "POST",
      body: { base_url: modelServer.url, api_key: "sk-wrong-key-000000" },
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ ok: false });
    expect(wrong.body.problem).toMatch(/answered 401.*refused/);

    const right = await api(server, `${providersPath}/compatible/test`, {
      method: "POST",
      body: { base_url: modelServer.url, api_key: savedKey },
    });
    expect(right.body).toMatchObject({ ok: true, model_count: modelServer.scenarioNames.length });

    const saved = await api(server, `${providersPath}/compatible`, {
      method: "PUT",
      body: { base_url: `${modelServer.url}/`, api_key: savedKey, models: ["happy-path"] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.provider).toMatchObject({
      provider: "compatible",
      source: "settings",
      overridden_by_environment: false,
      base_url: modelServer.url,
      saved: { has_key: true, models: ["happy-path"] },
    });
    expect(saved.body.provider.saved.key_hint).toBe(`…${savedKey.slice(-4)}`);

    // Listed at once, first after Auto (the compatible endpoint is what Auto tries first).
    const models = await api(server, "/api/models");
    expect(models.body.models[1]).toMatchObject({ id: "compatible:happy-path", available: true });

    const app = await createApp(server, "Saved provider");
    const run = await startRun(server, app.id, { input: "Change the heading", model_id: null });
    expect(run.resolved_model_id).toBe("compatible:happy-path");
    const { events } = await collectRun(server, app.id, run.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    const chat = modelServer.requests.filter((request) => request.path === "/v1/chat/completions");
    expect(chat.length).toBeGreaterThan(0);
    expect(chat.every((request) => request.apiKey === savedKey)).toBe(true);

    // Nowhere the person or a log can read: answers, events, the server's output, the data
    // folder (PGlite's files, the generated key) and the database rows.
    const answers = JSON.stringify([
      saved.body,
      models.body,
      (await api(server, providersPath)).body,
      (await api(server, `${providersPath}/compatible`)).body,
      await waitForRunEnd(server, app.id, run.id),
    ]);
    expect(answers).not.toContain(savedKey);
    expect(JSON.stringify(events)).not.toContain(savedKey);
    expect(server.output()).not.toContain(savedKey);
    for (const file of filesUnder(dataDir)) {
      expect(readFileSync(file).includes(savedKey), file).toBe(false);
    }
    const keyFile = path.join(dataDir, "secret.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it("lets the environment win, validates what it saves, and forgets a removed provider", async () => {
    const invalid = await api(server, `${providersPath}/compatible`, {
      method: "PUT",
      body: { base_url: "ftp://example.com/v1" },
    });
    expectErrorEnvelope(invalid, 400, "VALIDATION_FAILED");
    const withPassword = await api(server, `${providersPath}/compatible`, {
      method: "PUT",
      body: { base_url: "http://user:pass@127.0.0.1:9/v1" },
    });
    expectErrorEnvelope(withPassword, 400, "VALIDATION_FAILED");
    const noKey = await api(server, `${providersPath}/anthropic`, { method: "PUT", body: {} });
    expectErrorEnvelope(noKey, 400, "VALIDATION_FAILED");
    expect((await api(server, `${providersPath}/mistral`)).status).toBe(400);

    // OPENAI_API_KEY is blank in this server's environment, so a saved key is used.
    const openai = await api(server, `${providersPath}/openai`, {
      method: "PUT",
      body: { api_key: "sk-openai-saved-123456" },
    });
    expect(openai.body.provider).toMatchObject({
      source: "settings",
      saved: { key_hint: "…3456" },
    });
    const openaiModels = (await api(server, "/api/models")).body.models.filter(
      (model: { provider: string }) => model.provider === "openai",
    );
    expect(openaiModels.every((model: { available: boolean }) => model.available)).toBe(true);

    expect((await api(server, `${providersPath}/openai`, { method: "DELETE" })).status).toBe(204);
    expectErrorEnvelope(
      await api(server, `${providersPath}/openai`, { method: "DELETE" }),
      404,
      "NOT_FOUND",
    );
    const after = (await api(server, "/api/models")).body.models.filter(
      (model: { provider: string }) => model.provider === "openai",
    );
    expect(after.every((model: { available: boolean }) => !model.available)).toBe(true);

    // The stored row holds the key only sealed. Read with the server stopped: a PGlite folder
    // belongs to one process at a time.
    await server.stop();
    const handle = await openDatabase(
      target.env.DATABASE_URL ? { url: target.env.DATABASE_URL } : { dataDir },
    );
    try {
      const rows = await handle.db.select().from(providerSetting);
      expect(rows.map((row) => row.provider)).toEqual(["compatible"]);
      expect(rows[0].apiKeyCiphertext).toMatch(/^v1\./);
      expect(JSON.stringify(rows)).not.toContain(savedKey);
    } finally {
      await handle.close();
    }

    // Restarted with an endpoint in its environment: the environment wins over the saved one.
    server = await startPatchworkServer({
      env: {
        ...modelServerEnvironment(modelServer.url, ["slow-stream"]),
        ...target.env,
        PATCHWORK_DATA_DIR: dataDir,
      },
    });
    const listed = (await api(server, providersPath)).body.providers.find(
      (provider: { provider: string }) => provider.provider === "compatible",
    );
    expect(listed).toMatchObject({ source: "environment", overridden_by_environment: true });
    const ids = (await api(server, "/api/models")).body.models.map(
      (model: { id: string }) => model.id,
    );
    expect(ids).toContain("compatible:slow-stream");
    expect(ids).not.toContain("compatible:happy-path");
  });
});
