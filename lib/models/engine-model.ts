import "server-only";
import { PatchworkError } from "@/lib/errors";
import { keyedProviderApiKey } from "./keyed-providers";
import { parseModelId } from "./model-id";
import { providerEnvironment } from "./provider-settings";

/** A resolved model as an external engine needs it: its provider's endpoint, name and key. */
export interface ModelEndpoint {
  /** Patchwork's model id, e.g. `openai:gpt-5` or `compatible:qwen`. */
  id: string;
  provider: "openai" | "anthropic" | "google" | "compatible" | "ollama";
  /** The provider's own name for the model. */
  name: string;
  /** The provider's API base without a trailing slash (OpenAI-style bases end in `/v1`). */
  baseUrl: string;
  /** The environment variable holding its key, for engines that read the key by name. */
  keyVariable: string | null;
  /** Passed to engines through their environment only; never in events or logs. */
  apiKey: string | null;
}

/**
 * Where a resolved model is served, for engines that call the provider themselves. Honours
 * OPENAI_BASE_URL and ANTHROPIC_BASE_URL; throws CODING_AGENT_MODEL_UNAVAILABLE when unconfigured.
 */
export function describeModelEndpoint(modelId: string): ModelEndpoint {
  const parsed = parseModelId(modelId);
  if (!parsed) {
    throw new PatchworkError("CODING_AGENT_MODEL_UNAVAILABLE", "Not a provider:model id.", {
      details: { model_id: modelId.slice(0, 200), reason: "not a provider:model id" },
    });
  }
  const environment = providerEnvironment();
  const { provider, modelName: name } = parsed;
  const trim = (url: string) => url.replace(/\/+$/, "");
  switch (provider) {
    case "openai":
      return {
        id: modelId,
        provider,
        name,
        baseUrl: trim(environment.OPENAI_BASE_URL ?? "https://api.openai.com/v1"),
        keyVariable: "OPENAI_API_KEY",
        apiKey: keyedProviderApiKey(environment, "openai") ?? null,
      };
    case "anthropic":
      return {
        id: modelId,
        provider,
        name,
        baseUrl: trim(environment.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com"),
        keyVariable: "ANTHROPIC_API_KEY",
        apiKey: keyedProviderApiKey(environment, "anthropic") ?? null,
      };
    case "google":
      return {
        id: modelId,
        provider,
        name,
        baseUrl: "https://generativelanguage.googleapis.com/v1beta",
        keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
        apiKey: keyedProviderApiKey(environment, "google") ?? null,
      };
    case "compatible":
      return {
        id: modelId,
        provider,
        name,
        baseUrl: trim(environment.OPENAI_COMPATIBLE_BASE_URL ?? ""),
        keyVariable: "OPENAI_COMPATIBLE_API_KEY",
        apiKey: environment.OPENAI_COMPATIBLE_API_KEY?.trim() || null,
      };
    case "ollama":
      return {
        id: modelId,
        provider,
        name,
        baseUrl: `${trim(environment.OLLAMA_BASE_URL)}/v1`,
        keyVariable: null,
        apiKey: null,
      };
  }
}
