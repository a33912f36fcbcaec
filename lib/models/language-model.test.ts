import { type LanguageModel, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PatchworkError } from "@/lib/errors";
import { type ModelServer, modelServerEnvironment, startModelServer } from "@/test/model-server";
import { getLanguageModel } from "./language-model";
import { listModels } from "./list-models";
import { resolveModel } from "./resolve-model";
import { setUpModelEnvironment } from "./test-environment";

const setEnvironment = setUpModelEnvironment();
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

/** getLanguageModel never returns a gateway id string; the object tells provider and model. */
function languageModel(modelId: string): Exclude<LanguageModel, string> {
  const model = getLanguageModel(modelId);
  if (typeof model === "string") throw new Error("expected a model object");
  return model;
}

function thrown(action: () => unknown): PatchworkError {
  try {
    action();
  } catch (error) {
    if (PatchworkError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an error");
}

describe("getLanguageModel", () => {
  it("builds each keyed provider's model with its key", () => {
    setEnvironment({
      OPENAI_API_KEY: "k",
      ANTHROPIC_API_KEY: "k",
      GOOGLE_GENERATIVE_AI_API_KEY: "k",
    });
    expect(languageModel("openai:gpt-5.5")).toMatchObject({ modelId: "gpt-5.5" });
    expect(languageModel("openai:gpt-5.5").provider).toContain("openai");
    expect(languageModel("anthropic:claude-haiku-4-5").provider).toContain("anthropic");
    expect(languageModel("google:gemini-3.5-flash").provider).toContain("google");
  });

  it("refuses a provider without its key, naming the variable, and ids that are not provider:model", () => {
    setEnvironment({});
    const missingKey = thrown(() => getLanguageModel("anthropic:claude-sonnet-5-5"));
    expect(missingKey.code).toBe("CODING_AGENT_MODEL_UNAVAILABLE");
    expect(missingKey.message).toContain("ANTHROPIC_API_KEY");
    expect(thrown(() => getLanguageModel("auto")).code).toBe("CODING_AGENT_MODEL_UNAVAILABLE");
    expect(thrown(() => getLanguageModel("compatible:happy-path")).message).toContain(
      "OPENAI_COMPATIBLE_BASE_URL",
    );
  });

  it("streams from the scripted server as the compatible endpoint Auto picks", async () => {
    setEnvironment(modelServerEnvironment(server.url, ["text-only", "happy-path"]));
    const models = await listModels();
    expect(models.slice(0, 3).map((model) => model.id)).toEqual([
      "auto",
      "compatible:text-only",
      "compatible:happy-path",
    ]);
    const resolved = await resolveModel(null);
    expect(resolved.id).toBe("compatible:text-only");
    const result = streamText({ model: getLanguageModel(resolved.id), prompt: "Hi" });
    expect(await result.text).toContain("Patchwork edits your app");
    expect((await result.totalUsage).outputTokens).toBe(24);
  });

  it("discovers the compatible endpoint's models when none are listed", async () => {
    setEnvironment({ OPENAI_COMPATIBLE_BASE_URL: server.url });
    const ids = (await listModels()).map((model) => model.id);
    expect(ids).toContain("compatible:happy-path");
    expect(ids).toContain("compatible:long-stream");
  });

  it("detects an Ollama and runs its models through the OpenAI-compatible /v1 endpoint", async () => {
    setEnvironment({
      OLLAMA_BASE_URL: server.url.replace(/\/v1$/, ""),
      PATCHWORK_DISABLE_OLLAMA_DETECTION: "",
    });
    const resolved = await resolveModel("ollama:text-only");
    expect(resolved).toEqual({
      id: "ollama:text-only",
      provider: "ollama",
      label: "text-only",
      available: true,
    });
    expect((await resolveModel(null)).provider).toBe("ollama");
    const result = streamText({ model: getLanguageModel(resolved.id), prompt: "Hi" });
    expect(await result.text).toContain("Patchwork edits your app");
  });
});
