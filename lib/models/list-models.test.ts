import { afterEach, describe, expect, it } from "vitest";
import { resetEnvironmentForTests } from "@/lib/env";
import { listModels } from "./list-models";
import { setUpModelEnvironment } from "./test-environment";
import { sendJson, startTestJsonServer, type TestJsonServer } from "./test-json-server";

const setEnvironment = setUpModelEnvironment();
const servers: TestJsonServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(paths: Record<string, unknown>): Promise<TestJsonServer> {
  const server = await startTestJsonServer((request, response) => {
    const body = paths[request.url ?? ""];
    if (body === undefined) sendJson(response, 404, { error: "not found" });
    else sendJson(response, 200, body);
  });
  servers.push(server);
  return server;
}

describe("listModels", () => {
  it("with no provider lists only unavailable entries, Auto first with how to add one", async () => {
    setEnvironment({});
    const models = await listModels();
    expect(models[0]).toMatchObject({
      id: "auto",
      provider: "auto",
      label: "Auto",
      available: false,
    });
    expect(models[0]?.reason).toMatch(/OPENAI_API_KEY.*OPENAI_COMPATIBLE_BASE_URL.*Ollama/s);
    expect(models.every((model) => !model.available)).toBe(true);
    expect(models.filter((model) => model.provider === "compatible")).toEqual([]);
    expect(models.filter((model) => model.provider === "ollama")).toEqual([]);
    for (const model of models.slice(1)) expect(model.reason).toBeTruthy();
    const anthropic = models.find((model) => model.id === "anthropic:claude-sonnet-5-5");
    expect(anthropic?.reason).toBe("Set ANTHROPIC_API_KEY to use Anthropic models.");
  });

  it("makes a keyed provider's models available and never shows the key", async () => {
    setEnvironment({ OPENAI_API_KEY: "sk-test-very-secret", GOOGLE_GENERATIVE_AI_API_KEY: "  " });
    const models = await listModels();
    const openai = models.filter((model) => model.provider === "openai");
    expect(openai.map((model) => model.id)).toEqual(["openai:gpt-5.5", "openai:gpt-5.4-mini"]);
    expect(openai.every((model) => model.available && model.reason === undefined)).toBe(true);
    expect(
      models.filter((model) => model.provider === "google").every((model) => !model.available),
    ).toBe(true);
    expect(models[0]).toEqual({ id: "auto", provider: "auto", label: "Auto", available: true });
    expect(JSON.stringify(models)).not.toContain("sk-test-very-secret");
  });

  it("lists OPENAI_COMPATIBLE_MODELS first, before the keyed providers", async () => {
    setEnvironment({
      ANTHROPIC_API_KEY: "key",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1/v1",
      OPENAI_COMPATIBLE_MODELS: "happy-path,patch-retry",
    });
    const ids = (await listModels()).map((model) => model.id);
    expect(ids.slice(0, 3)).toEqual(["auto", "compatible:happy-path", "compatible:patch-retry"]);
    expect(ids).toContain("anthropic:claude-sonnet-5-5");
  });

  it("discovers the compatible endpoint's models over HTTP and caches the answer", async () => {
    const server = await serve({ "/v1/models": { data: [{ id: "local-coder" }] } });
    setEnvironment({ OPENAI_COMPATIBLE_BASE_URL: `${server.origin}/v1` });
    const first = await listModels();
    const second = await listModels();
    expect(first.find((model) => model.id === "compatible:local-coder")?.available).toBe(true);
    expect(second).toEqual(first);
    expect(server.requests).toHaveLength(1);
  });

  it("finds a local Ollama by itself and lists it last", async () => {
    const server = await serve({ "/api/tags": { models: [{ name: "qwen2.5-coder:7b" }] } });
    setEnvironment({ OLLAMA_BASE_URL: server.origin, PATCHWORK_DISABLE_OLLAMA_DETECTION: "0" });
    const models = await listModels();
    expect(models.at(-1)).toEqual({
      id: "ollama:qwen2.5-coder:7b",
      provider: "ollama",
      label: "qwen2.5-coder:7b",
      available: true,
    });
    expect(models[0]?.available).toBe(true);
  });

  it("does not probe Ollama when detection is disabled", async () => {
    const server = await serve({ "/api/tags": { models: [{ name: "llama3.2" }] } });
    setEnvironment({ OLLAMA_BASE_URL: server.origin, PATCHWORK_DISABLE_OLLAMA_DETECTION: "1" });
    const models = await listModels();
    expect(models.some((model) => model.provider === "ollama")).toBe(false);
    expect(server.requests).toEqual([]);
  });

  it("lists an absent Ollama as unavailable without making Auto available", async () => {
    const closed = await startTestJsonServer(() => undefined);
    await closed.close();
    setEnvironment({ OLLAMA_BASE_URL: closed.origin, PATCHWORK_DISABLE_OLLAMA_DETECTION: "false" });
    const models = await listModels();
    expect(models.find((model) => model.provider === "ollama")).toMatchObject({
      id: "ollama",
      available: false,
    });
    expect(models[0]?.available).toBe(false);
  });

  it("probes again when the settings change, even inside the cache window", async () => {
    const first = await serve({ "/v1/models": { data: [{ id: "one" }] } });
    const second = await serve({ "/v1/models": { data: [{ id: "two" }] } });
    setEnvironment({ OPENAI_COMPATIBLE_BASE_URL: `${first.origin}/v1` });
    expect((await listModels()).map((model) => model.id)).toContain("compatible:one");
    process.env.OPENAI_COMPATIBLE_BASE_URL = `${second.origin}/v1`;
    resetEnvironmentForTests();
    expect((await listModels()).map((model) => model.id)).toContain("compatible:two");
  });

  it("shares one probe between concurrent callers", async () => {
    const server = await serve({ "/v1/models": { data: [{ id: "shared" }] } });
    setEnvironment({ OPENAI_COMPATIBLE_BASE_URL: `${server.origin}/v1` });
    await Promise.all([listModels(), listModels(), listModels()]);
    expect(server.requests).toHaveLength(1);
  });
});
