import type { ModelInfo } from "./agent-api-types";

export const autoModelId = "auto";

export function modelStorageKey(appId: string): string {
  return `patchwork:agent:model:${appId}`;
}

const providerNames: Record<string, string> = {
  auto: "Automatic",
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  compatible: "OpenAI-compatible",
  ollama: "Ollama",
};

export function providerName(provider: string): string {
  return providerNames[provider] ?? provider;
}

/** The `model_id` a run is created with: null lets the server pick (Auto). */
export function requestedModelId(choice: string | null): string | null {
  return !choice || choice === autoModelId ? null : choice;
}

/** True when at least one real model can run; with none, the panel explains how to add one. */
export function anyModelAvailable(models: readonly ModelInfo[]): boolean {
  return models.some((model) => model.provider !== "auto" && model.available);
}

/** The model Auto would take now: the first available one, in the server's order. */
export function autoResolution(models: readonly ModelInfo[]): ModelInfo | null {
  return models.find((model) => model.provider !== "auto" && model.available) ?? null;
}
