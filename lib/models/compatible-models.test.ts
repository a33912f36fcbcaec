import { afterEach, describe, expect, it } from "vitest";
import { discoverCompatibleModels, parseModelList } from "./compatible-models";
import { sendJson, startTestJsonServer, type TestJsonServer } from "./test-json-server";

let server: TestJsonServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("parseModelList", () => {
  it("trims, drops blanks and repeats, keeps order", () => {
    expect(parseModelList(" b, a ,,b, c ")).toEqual(["b", "a", "c"]);
    expect(parseModelList(undefined)).toEqual([]);
  });
});

describe("discoverCompatibleModels", () => {
  it("lists nothing when the endpoint is not configured", async () => {
    expect(
      await discoverCompatibleModels({
        baseUrl: undefined,
        apiKey: undefined,
        configuredModels: "",
      }),
    ).toEqual([]);
  });

  it("uses OPENAI_COMPATIBLE_MODELS without asking the endpoint", async () => {
    server = await startTestJsonServer((_request, response) => sendJson(response, 500, {}));
    const models = await discoverCompatibleModels({
      baseUrl: `${server.origin}/v1`,
      apiKey: undefined,
      configuredModels: "happy-path, text-only",
    });
    expect(models).toEqual([
      { id: "compatible:happy-path", provider: "compatible", label: "happy-path", available: true },
      { id: "compatible:text-only", provider: "compatible", label: "text-only", available: true },
    ]);
    expect(server.requests).toEqual([]);
  });

  it("says which variable is missing when only the model list is set", async () => {
    const [model] = await discoverCompatibleModels({
      baseUrl: undefined,
      apiKey: undefined,
      configuredModels: "a",
    });
    expect(model).toMatchObject({ available: false });
    expect(model?.reason).toContain("OPENAI_COMPATIBLE_BASE_URL");
  });

  it("discovers models through GET {base}/models with the bearer key", async () => {
    server = await startTestJsonServer((request, response) => {
      if (request.url === "/v1/models") {
        sendJson(response, 200, { object: "list", data: [{ id: "qwen-coder" }, { id: "llama" }] });
      } else sendJson(response, 404, {});
    });
    const models = await discoverCompatibleModels({
      baseUrl: `${server.origin}/v1/`,
      apiKey: "secret-key-123",
      configuredModels: undefined,
    });
    expect(models.map((model) => model.id)).toEqual(["compatible:qwen-coder", "compatible:llama"]);
    expect(server.requests).toEqual([
      { path: "/v1/models", authorization: "Bearer secret-key-123" },
    ]);
  });

  it("lists the endpoint unavailable with the reason when it fails, without secrets", async () => {
    server = await startTestJsonServer((_request, response) =>
      sendJson(response, 401, { error: "bad key" }),
    );
    const models = await discoverCompatibleModels({
      baseUrl: `${server.origin}/v1?token=abc`,
      apiKey: "secret-key-123",
      configuredModels: undefined,
    });
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ id: "compatible", provider: "compatible", available: false });
    expect(models[0]?.reason).toContain("answered 401");
    expect(models[0]?.reason).toContain("OPENAI_COMPATIBLE_MODELS");
    expect(JSON.stringify(models)).not.toMatch(/secret-key-123|token=abc/);

    const [withCredentials] = await discoverCompatibleModels({
      baseUrl: `http://user:hunter2@${server.origin.slice("http://".length)}/v1`,
      apiKey: undefined,
      configuredModels: undefined,
    });
    expect(withCredentials?.reason).toContain("user name or password");
    expect(withCredentials?.reason).not.toContain("hunter2");
  });

  it("gives up after the timeout on an endpoint that never answers", async () => {
    server = await startTestJsonServer(() => {
      // Never answers.
    });
    const started = performance.now();
    const [model] = await discoverCompatibleModels({
      baseUrl: `${server.origin}/v1`,
      apiKey: undefined,
      configuredModels: undefined,
      timeoutMs: 100,
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(model?.reason).toContain("did not answer within 100 ms");
  });

  it("reports a refused connection and a body that is not a model list", async () => {
    const closed = await startTestJsonServer(() => undefined);
    await closed.close();
    const [refused] = await discoverCompatibleModels({
      baseUrl: `${closed.origin}/v1`,
      apiKey: undefined,
      configuredModels: undefined,
    });
    expect(refused?.reason).toContain("refused the connection");

    server = await startTestJsonServer((_request, response) =>
      sendJson(response, 200, { models: [] }),
    );
    const [malformed] = await discoverCompatibleModels({
      baseUrl: server.origin,
      apiKey: undefined,
      configuredModels: undefined,
    });
    expect(malformed?.reason).toContain("did not answer an OpenAI model list");
  });
});
