import type { ModelProvider } from "./model-info";

export type ConcreteModelProvider = Exclude<ModelProvider, "auto">;

const concreteProviders: readonly ConcreteModelProvider[] = [
  "openai",
  "anthropic",
  "google",
  "compatible",
  "ollama",
];

export interface ParsedModelId {
  provider: ConcreteModelProvider;
  /** The provider's own model name; may itself contain colons (Ollama tags such as `llama3.2:3b`). */
  modelName: string;
}

/** Splits `provider:model` at the first colon; null when the provider is unknown or the name is empty. */
export function parseModelId(modelId: string): ParsedModelId | null {
  const separator = modelId.indexOf(":");
  if (separator <= 0) return null;
  const provider = modelId.slice(0, separator) as ConcreteModelProvider;
  const modelName = modelId.slice(separator + 1);
  if (!concreteProviders.includes(provider) || modelName.trim() === "") return null;
  return { provider, modelName };
}

/** The inverse of {@link parseModelId}. */
export function formatModelId({ provider, modelName }: ParsedModelId): string {
  return `${provider}:${modelName}`;
}
