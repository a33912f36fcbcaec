import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { PatchworkError } from "@/lib/errors";
import { keyedProviderApiKey, keyedProviderDefinitions } from "./keyed-providers";
import { parseModelId } from "./model-id";
import { providerEnvironment } from "./provider-settings";

/** The streaming wire format of a provider's answers, so a caller can wrap its fetch per format. */
export type ProviderWireFormat = "openai-chat" | "openai-responses" | "anthropic" | "google";

/**
 * The AI SDK model behind a resolved model id (see {@link resolveModel}). It checks only that the
 * provider is configured, not that discovery lists the model, so a run keeps the model it was
 * pinned to even if discovery changes while it runs. Keys are passed explicitly so the SDK never
 * falls back to other environment variables of its own.
 */
export function getLanguageModel(
  modelId: string,
  options: {
    /**
     * The fetch every provider call goes through, chosen per wire format (the native engine joins
     * small stream pieces and taps text there); the platform fetch when absent.
     */
    fetchFor?: (format: ProviderWireFormat) => typeof globalThis.fetch;
  } = {},
): LanguageModel {
  const fetchFor = options.fetchFor ?? (() => globalThis.fetch);
  const parsed = parseModelId(modelId);
  if (!parsed) {
    throw new PatchworkError(
      "CODING_AGENT_MODEL_UNAVAILABLE",
      `"${modelId.slice(0, 200)}" is not a provider:model id; resolve it first.`,
      { details: { model_id: modelId.slice(0, 200), reason: "not a provider:model id" } },
    );
  }
  const environment = providerEnvironment();
  const { provider, modelName } = parsed;

  switch (provider) {
    case "openai":
    case "anthropic":
    case "google": {
      const apiKey = keyedProviderApiKey(environment, provider);
      if (!apiKey) {
        const variable = keyedProviderDefinitions.find(
          (definition) => definition.provider === provider,
        )?.keyVariable;
        throw unconfigured(modelId, `${variable} is not set`);
      }
      if (provider === "openai") {
        // `provider(model)` is the Responses API in AI SDK 6.
        return createOpenAI({
          apiKey,
          baseURL: environment.OPENAI_BASE_URL,
          fetch: fetchFor("openai-responses"),
        })(modelName);
      }
      if (provider === "anthropic") {
        return createAnthropic({
          apiKey,
          baseURL: anthropicApiBase(environment.ANTHROPIC_BASE_URL),
          fetch: fetchFor("anthropic"),
        })(modelName);
      }
      // Gemini streams whole sentences per event, each with running usage: nothing to join, and
      // its text reaches the run through the SDK.
      return createGoogleGenerativeAI({ apiKey, fetch: fetchFor("google") })(modelName);
    }
    case "compatible": {
      const baseURL = environment.OPENAI_COMPATIBLE_BASE_URL;
      if (!baseURL) throw unconfigured(modelId, "OPENAI_COMPATIBLE_BASE_URL is not set");
      return createOpenAICompatible({
        name: "compatible",
        baseURL: baseURL.replace(/\/+$/, ""),
        apiKey: environment.OPENAI_COMPATIBLE_API_KEY?.trim() || undefined,
        includeUsage: true,
        fetch: fetchFor("openai-chat"),
      }).chatModel(modelName);
    }
    case "ollama": {
      if (environment.PATCHWORK_DISABLE_OLLAMA_DETECTION) {
        throw unconfigured(modelId, "Ollama is disabled by PATCHWORK_DISABLE_OLLAMA_DETECTION");
      }
      return createOpenAICompatible({
        name: "ollama",
        baseURL: `${environment.OLLAMA_BASE_URL.replace(/\/+$/, "")}/v1`,
        includeUsage: true,
        fetch: fetchFor("openai-chat"),
      }).chatModel(modelName);
    }
  }
}

function unconfigured(modelId: string, reason: string): PatchworkError {
  return new PatchworkError(
    "CODING_AGENT_MODEL_UNAVAILABLE",
    `Model ${modelId} cannot be used: ${reason}.`,
    { details: { model_id: modelId, reason } },
  );
}

/** ANTHROPIC_BASE_URL is the host (as Claude Code reads it); the AI SDK wants the `/v1` base. */
function anthropicApiBase(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}
