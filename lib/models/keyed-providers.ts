import "server-only";
import type { Environment } from "@/lib/env";
import type { ModelInfo } from "./model-info";

type KeyedProvider = "openai" | "anthropic" | "google";

interface KeyedProviderDefinition {
  provider: KeyedProvider;
  displayName: string;
  keyVariable: "OPENAI_API_KEY" | "ANTHROPIC_API_KEY" | "GOOGLE_GENERATIVE_AI_API_KEY";
  /** The strongest sensible coding model first (Auto takes it), then a fast, cheap one. */
  models: readonly { modelName: string; label: string }[];
}

/** Providers that need only an API key; the model names are ones the installed AI SDK knows. */
export const keyedProviderDefinitions: readonly KeyedProviderDefinition[] = [
  {
    provider: "openai",
    displayName: "OpenAI",
    keyVariable: "OPENAI_API_KEY",
    models: [
      { modelName: "gpt-5.5", label: "GPT-5.5" },
      { modelName: "gpt-5.4-mini", label: "GPT-5.4 mini" },
    ],
  },
  {
    provider: "anthropic",
    displayName: "Anthropic",
    keyVariable: "ANTHROPIC_API_KEY",
    models: [
      { modelName: "claude-sonnet-5-5", label: "Claude Sonnet 5.5" },
      { modelName: "claude-opus-5-5", label: "Claude Opus 5.5" },
      { modelName: "claude-haiku-4-5", label: "Claude Haiku 4.5" },
    ],
  },
  {
    provider: "google",
    displayName: "Google",
    keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
    models: [
      { modelName: "gemini-3.1-pro-preview", label: "Gemini 3.1 Pro (preview)" },
      { modelName: "gemini-3.5-flash", label: "Gemini 3.5 Flash" },
    ],
  },
];

/** The API key of a keyed provider, treating an empty or blank variable as unset. */
export function keyedProviderApiKey(
  environment: Environment,
  provider: KeyedProvider,
): string | undefined {
  const definition = keyedProviderDefinitions.find((candidate) => candidate.provider === provider);
  const value = definition ? environment[definition.keyVariable]?.trim() : undefined;
  return value ? value : undefined;
}

/** Every default model of every keyed provider: available when its key is set, else why not. */
export function listKeyedProviderModels(environment: Environment): ModelInfo[] {
  return keyedProviderDefinitions.flatMap((definition) => {
    const hasKey = keyedProviderApiKey(environment, definition.provider) !== undefined;
    return definition.models.map(({ modelName, label }) => ({
      id: `${definition.provider}:${modelName}`,
      provider: definition.provider,
      label,
      available: hasKey,
      ...(hasKey
        ? {}
        : { reason: `Set ${definition.keyVariable} to use ${definition.displayName} models.` }),
    }));
  });
}
