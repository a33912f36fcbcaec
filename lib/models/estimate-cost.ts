/** US dollars per million tokens, at each provider's standard (not long-context or batch) rate. */
interface TokenPrices {
  input: number;
  output: number;
  cacheRead: number;
  /** Anthropic bills writing the prompt cache; the others bill it as plain input. */
  cacheWrite: number;
}

/**
 * Published list prices (mid 2026) of the default models in `keyed-providers.ts`. Models served
 * by an OpenAI-compatible endpoint or Ollama have no price here: their cost is unknown.
 */
const pricesByModelId: Readonly<Record<string, TokenPrices>> = {
  "openai:gpt-5.5": { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 },
  "openai:gpt-5.4-mini": { input: 0.75, output: 4.5, cacheRead: 0.075, cacheWrite: 0.75 },
  "anthropic:claude-sonnet-5-5": { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  "anthropic:claude-opus-5-5": { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 },
  "anthropic:claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  "google:gemini-3.1-pro-preview": { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 2 },
  "google:gemini-3.5-flash": { input: 1.5, output: 9, cacheRead: 0.15, cacheWrite: 1.5 },
};

/**
 * The token counts a cost needs; the AI SDK's `LanguageModelUsage` fits. As in the AI SDK,
 * `inputTokens` includes cached tokens, which the details split out.
 */
export interface UsageForCost {
  inputTokens?: number;
  outputTokens?: number;
  inputTokenDetails?: {
    noCacheTokens?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
  };
}

/**
 * Estimated cost in US dollars of `usage` on a model, rounded to a millionth of a dollar; null
 * when the model has no known price or the usage has no token counts.
 */
export function estimateCostUsd(modelId: string, usage: UsageForCost): number | null {
  // hasOwn keeps ids such as "constructor" from reaching Object.prototype.
  const prices = Object.hasOwn(pricesByModelId, modelId) ? pricesByModelId[modelId] : undefined;
  if (!prices) return null;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return null;

  const cacheReadTokens = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWriteTokens = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  const uncachedTokens =
    usage.inputTokenDetails?.noCacheTokens ??
    Math.max(0, (usage.inputTokens ?? 0) - cacheReadTokens - cacheWriteTokens);
  const outputTokens = usage.outputTokens ?? 0;

  const dollars =
    (uncachedTokens * prices.input +
      cacheReadTokens * prices.cacheRead +
      cacheWriteTokens * prices.cacheWrite +
      outputTokens * prices.output) /
    1_000_000;
  return Math.round(dollars * 1_000_000) / 1_000_000;
}

/** Whether {@link estimateCostUsd} knows a price for the model. */
export function hasKnownPrice(modelId: string): boolean {
  return Object.hasOwn(pricesByModelId, modelId);
}
