import "server-only";
import { discoverCompatibleModels } from "./compatible-models";
import { listKeyedProviderModels } from "./keyed-providers";
import { autoModelId, type ModelInfo } from "./model-info";
import { detectOllamaModels } from "./ollama-models";
import { providerEnvironment } from "./provider-settings";

/** Discovery answers are reused this long so that `GET /api/models` stays cheap. */
export const modelDiscoveryCacheMs = 10_000;

/** What to tell a person who has no model at all; also the reason on an unavailable Auto. */
export const addProviderAdvice =
  "No model is configured. Add a provider's key or an OpenAI-compatible endpoint in Settings " +
  "(/settings), or set OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY, or " +
  "point OPENAI_COMPATIBLE_BASE_URL at an OpenAI-compatible endpoint (LM Studio, vLLM, " +
  "OpenRouter…), and restart Patchwork; or start Ollama on this machine.";

interface CachedDiscovery {
  /** The settings the answer was computed from; a change (tests, reloads) invalidates it. */
  key: string;
  expiresAt: number;
  models: Promise<ModelInfo[]>;
}

let cachedDiscovery: CachedDiscovery | undefined;

/**
 * `Auto` first, then every configured model in the order Auto tries them: the
 * Patchwork-specific OpenAI-compatible endpoint (set on purpose for this app, unlike provider
 * keys that are often exported for other tools), then OpenAI, Anthropic, Google, then a local
 * Ollama found by itself. Unavailable entries carry the reason and what to set.
 */
export async function listModels(): Promise<ModelInfo[]> {
  const environment = providerEnvironment();
  const discovered = await discoverModels();
  const configured = [
    ...discovered.compatible,
    ...listKeyedProviderModels(environment),
    ...discovered.ollama,
  ];
  const anyAvailable = configured.some((model) => model.available);
  const auto: ModelInfo = {
    id: autoModelId,
    provider: "auto",
    label: "Auto",
    available: anyAvailable,
    ...(anyAvailable ? {} : { reason: addProviderAdvice }),
  };
  return [auto, ...configured];
}

/** Forgets cached discovery answers so the next call probes again. */
export function resetModelDiscoveryCache(): void {
  cachedDiscovery = undefined;
}

async function discoverModels(): Promise<{ compatible: ModelInfo[]; ollama: ModelInfo[] }> {
  const environment = providerEnvironment();
  const settings = {
    compatibleBaseUrl: environment.OPENAI_COMPATIBLE_BASE_URL,
    compatibleApiKey: environment.OPENAI_COMPATIBLE_API_KEY?.trim() || undefined,
    compatibleModels: environment.OPENAI_COMPATIBLE_MODELS,
    ollamaBaseUrl: environment.PATCHWORK_DISABLE_OLLAMA_DETECTION
      ? undefined
      : environment.OLLAMA_BASE_URL,
  };
  // The key stays in memory only; it is part of the settings an answer depends on.
  const key = JSON.stringify(settings);
  const now = Date.now();
  if (!cachedDiscovery || cachedDiscovery.key !== key || cachedDiscovery.expiresAt <= now) {
    const models = Promise.all([
      discoverCompatibleModels({
        baseUrl: settings.compatibleBaseUrl,
        apiKey: settings.compatibleApiKey,
        configuredModels: settings.compatibleModels,
      }),
      settings.ollamaBaseUrl ? detectOllamaModels({ baseUrl: settings.ollamaBaseUrl }) : [],
    ]).then(([compatible, ollama]) => [...compatible, ...ollama]);
    // Concurrent callers share one probe: the entry is stored before it settles.
    cachedDiscovery = { key, expiresAt: now + modelDiscoveryCacheMs, models };
  }
  const models = await cachedDiscovery.models;
  return {
    compatible: models.filter((model) => model.provider === "compatible"),
    ollama: models.filter((model) => model.provider === "ollama"),
  };
}
