import { describe, expect, it } from "vitest";
import { estimateCostUsd, hasKnownPrice } from "./estimate-cost";
import { keyedProviderDefinitions } from "./keyed-providers";

describe("estimateCostUsd", () => {
  it("prices input and output per million tokens", () => {
    expect(
      estimateCostUsd("anthropic:claude-sonnet-5-5", {
        inputTokens: 1_000_000,
        outputTokens: 100_000,
      }),
    ).toBe(3);
  });

  it("bills cached reads and cache writes at their own rates", () => {
    const cost = estimateCostUsd("anthropic:claude-haiku-4-5", {
      inputTokens: 3_000,
      outputTokens: 0,
      inputTokenDetails: { noCacheTokens: 1_000, cacheReadTokens: 1_000, cacheWriteTokens: 1_000 },
    });
    expect(cost).toBeCloseTo((1_000 * 1 + 1_000 * 0.1 + 1_000 * 1.25) / 1_000_000, 9);
  });

  it("derives the uncached part when only the cached details are given", () => {
    const cost = estimateCostUsd("openai:gpt-5.5", {
      inputTokens: 10_000,
      outputTokens: 0,
      inputTokenDetails: { cacheReadTokens: 4_000 },
    });
    expect(cost).toBeCloseTo((6_000 * 5 + 4_000 * 0.5) / 1_000_000, 9);
  });

  it("is null for models without a price and for usage without counts", () => {
    expect(
      estimateCostUsd("compatible:happy-path", { inputTokens: 10, outputTokens: 10 }),
    ).toBeNull();
    expect(estimateCostUsd("ollama:llama3.2", { inputTokens: 10, outputTokens: 10 })).toBeNull();
    expect(estimateCostUsd("constructor", { inputTokens: 10 })).toBeNull();
    expect(estimateCostUsd("openai:gpt-5.5", {})).toBeNull();
  });

  it("knows a price for every default model of a keyed provider", () => {
    const defaults = keyedProviderDefinitions.flatMap((definition) =>
      definition.models.map((model) => `${definition.provider}:${model.modelName}`),
    );
    expect(defaults.filter((modelId) => !hasKnownPrice(modelId))).toEqual([]);
  });
});
