import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { getEnvironment } from "@/lib/env";
import { PatchworkError } from "@/lib/errors";
import { coalescingFetch, type StreamTextTap } from "./coalesce-event-stream";
import { nodeHttpFetch } from "./node-http-fetch";
import { keyedProviderApiKey, keyedProviderDefinitions } from "./keyed-providers";
import { parseModelId } from "./model-id";

/**
 * The AI SDK model behind a resolved model id (see {@link resolveModel}). It checks only that the
 * provider is configured, not that discovery lists the model, so a run keeps the model it was
 * pinned to even if discovery changes while it runs. Keys are passed explicitly so the SDK never
 * falls back to other environment variables of its own.
 */
export function getLanguageModel(
  modelId: string,
  options: {
    /** Observes every provider HTTP call (the run executor uses it to report rate limits). */
    fetch?: typeof globalThis.fetch;
    /** Receives streamed text off the wire, where the provider's format allows it. */
    textTap?: StreamTextTap;
  } = {},
): LanguageModel {
  const fetch = options.fetch ?? nodeHttpFetch;
  const { textTap } = options;
  const parsed = parseModelId(modelId);
  if (!parsed) {
    throw new PatchworkError(
      "CODING_AGENT_MODEL_UNAVAILABLE",
      `"${modelId.slice(0, 200)}" is not a provider:model id; resolve it first.`,
      { details: { model_id: modelId.slice(0, 200), reason: "not a provider:model id" } },
    );
  }
  const environment = getEnvironment();
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
        return createOpenAI({ apiKey, fetch: coalescingFetch("openai-responses", fetch, textTap) })(
          modelName,
        );
      }
      if (provider === "anthropic") {
        return createAnthropic({ apiKey, fetch: coalescingFetch("anthropic", fetch, textTap) })(
          modelName,
        );
      }
      // Gemini streams whole sentences per event, each with running usage: nothing to join, and
      // its text reaches the run through the SDK.
      return createGoogleGenerativeAI({ apiKey, fetch })(modelName);
    }
    case "compatible": {
      const baseURL = environment.OPENAI_COMPATIBLE_BASE_URL;
      if (!baseURL) throw unconfigured(modelId, "OPENAI_COMPATIBLE_BASE_URL is not set");
      return createOpenAICompatible({
        name: "compatible",
        baseURL: baseURL.replace(/\/+$/, ""),
        apiKey: environment.OPENAI_COMPATIBLE_API_KEY?.trim() || undefined,
        includeUsage: true,
        fetch: coalescingFetch("openai-chat", fetch, textTap),
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
        fetch: coalescingFetch("openai-chat", fetch, textTap),
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
