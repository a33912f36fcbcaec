import { describe, expect, it } from "vitest";
import { PatchworkError } from "@/lib/errors";
import { resolveModel } from "./resolve-model";
import { setUpModelEnvironment } from "./test-environment";

const setEnvironment = setUpModelEnvironment();

async function resolveError(modelId: string | null | undefined): Promise<PatchworkError> {
  const error = await resolveModel(modelId).then(
    () => {
      throw new Error(`expected ${modelId} not to resolve`);
    },
    (caught: unknown) => caught,
  );
  if (!PatchworkError.isInstance(error)) throw error;
  return error;
}

describe("resolveModel", () => {
  it("resolves Auto, null and undefined to the first available model", async () => {
    setEnvironment({ ANTHROPIC_API_KEY: "key", GOOGLE_GENERATIVE_AI_API_KEY: "key" });
    for (const requested of [null, undefined, "auto", " auto "]) {
      expect((await resolveModel(requested)).id).toBe("anthropic:claude-sonnet-5-5");
    }
  });

  it("follows the order compatible, OpenAI, Anthropic, Google", async () => {
    setEnvironment({ GOOGLE_GENERATIVE_AI_API_KEY: "key" });
    expect((await resolveModel(null)).id).toBe("google:gemini-3.1-pro-preview");
    setEnvironment({ GOOGLE_GENERATIVE_AI_API_KEY: "key", OPENAI_API_KEY: "key" });
    expect((await resolveModel(null)).id).toBe("openai:gpt-5.5");
    setEnvironment({
      OPENAI_API_KEY: "key",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1/v1",
      OPENAI_COMPATIBLE_MODELS: "happy-path",
    });
    expect(await resolveModel(undefined)).toEqual({
      id: "compatible:happy-path",
      provider: "compatible",
      label: "happy-path",
      available: true,
    });
  });

  it("returns an explicitly requested available model", async () => {
    setEnvironment({ OPENAI_API_KEY: "key", ANTHROPIC_API_KEY: "key" });
    expect((await resolveModel("anthropic:claude-haiku-4-5")).label).toBe("Claude Haiku 4.5");
  });

  it("refuses Auto with nothing configured and says how to add a provider", async () => {
    setEnvironment({});
    const error = await resolveError(null);
    expect(error.code).toBe("CODING_AGENT_MODEL_UNAVAILABLE");
    expect(error.status).toBe(400);
    expect(error.message).toContain("OPENAI_COMPATIBLE_BASE_URL");
    expect(error.details).toEqual({ model_id: "auto", reason: "no provider is configured" });
  });

  it("refuses an unknown id", async () => {
    setEnvironment({ OPENAI_API_KEY: "key" });
    const error = await resolveError("openai:gpt-2");
    expect(error.code).toBe("CODING_AGENT_MODEL_UNAVAILABLE");
    expect(error.message).toContain('Unknown model "openai:gpt-2"');
    expect(error.details).toEqual({ model_id: "openai:gpt-2", reason: "not a configured model" });
  });

  it("refuses a listed but unavailable model with the variable to set, never the key", async () => {
    setEnvironment({ OPENAI_API_KEY: "sk-secret-value" });
    const error = await resolveError("anthropic:claude-sonnet-5-5");
    expect(error.message).toContain("ANTHROPIC_API_KEY");
    expect(error.details).toEqual({
      model_id: "anthropic:claude-sonnet-5-5",
      reason: "Set ANTHROPIC_API_KEY to use Anthropic models.",
    });
    expect(JSON.stringify(error.toBody())).not.toContain("sk-secret-value");
  });

  it("refuses placeholders for unreachable endpoints with the discovery reason", async () => {
    setEnvironment({ OPENAI_COMPATIBLE_MODELS: "happy-path" });
    const error = await resolveError("compatible");
    expect((error.details as { reason: string }).reason).toContain("OPENAI_COMPATIBLE_BASE_URL");
  });
});
