import { afterEach, describe, expect, it } from "vitest";
import { detectOllamaModels } from "./ollama-models";
import { sendJson, startTestJsonServer, type TestJsonServer } from "./test-json-server";

let server: TestJsonServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("detectOllamaModels", () => {
  it("lists the pulled models from /api/tags", async () => {
    server = await startTestJsonServer((request, response) => {
      if (request.url === "/api/tags") {
        sendJson(response, 200, {
          models: [
            { name: "llama3.2:latest", model: "llama3.2:latest", size: 2_019_393_189 },
            { name: "qwen2.5-coder:7b", model: "qwen2.5-coder:7b" },
          ],
        });
      } else sendJson(response, 404, {});
    });
    expect(await detectOllamaModels({ baseUrl: server.origin })).toEqual([
      { id: "ollama:llama3.2:latest", provider: "ollama", label: "llama3.2", available: true },
      {
        id: "ollama:qwen2.5-coder:7b",
        provider: "ollama",
        label: "qwen2.5-coder:7b",
        available: true,
      },
    ]);
  });

  it("lists Ollama unavailable with how to start it when nothing answers", async () => {
    const closed = await startTestJsonServer(() => undefined);
    await closed.close();
    const [entry] = await detectOllamaModels({ baseUrl: closed.origin });
    expect(entry).toMatchObject({ id: "ollama", provider: "ollama", available: false });
    expect(entry?.reason).toContain("refused the connection");
    expect(entry?.reason).toContain("ollama serve");
    expect(entry?.reason).toContain("OLLAMA_BASE_URL");
  });

  it("treats a slow answer as absent", async () => {
    server = await startTestJsonServer((_request, response) => {
      setTimeout(() => sendJson(response, 200, { models: [{ name: "late" }] }), 500);
    });
    const [entry] = await detectOllamaModels({ baseUrl: server.origin, timeoutMs: 50 });
    expect(entry).toMatchObject({ available: false });
    expect(entry?.reason).toContain("did not answer within 50 ms");
  });

  it("says so when Ollama runs without models, or something else answers", async () => {
    server = await startTestJsonServer((request, response) =>
      request.url === "/api/tags"
        ? sendJson(response, 200, { models: [] })
        : sendJson(response, 404, {}),
    );
    const [empty] = await detectOllamaModels({ baseUrl: server.origin });
    expect(empty?.reason).toContain("ollama pull");
    const [other] = await detectOllamaModels({ baseUrl: `${server.origin}/elsewhere` });
    expect(other?.reason).toContain("answered 404");
  });
});
