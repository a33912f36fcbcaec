import { describe, expect, it } from "vitest";
import { formatModelId, parseModelId } from "./model-id";

describe("parseModelId", () => {
  it("splits at the first colon so Ollama tags survive", () => {
    expect(parseModelId("ollama:llama3.2:3b")).toEqual({
      provider: "ollama",
      modelName: "llama3.2:3b",
    });
    expect(parseModelId("openai:gpt-5.5")).toEqual({ provider: "openai", modelName: "gpt-5.5" });
  });

  it("refuses unknown providers, Auto and empty names", () => {
    expect(parseModelId("auto")).toBeNull();
    expect(parseModelId("mistral:large")).toBeNull();
    expect(parseModelId("openai:")).toBeNull();
    expect(parseModelId(":gpt")).toBeNull();
    expect(parseModelId("compatible")).toBeNull();
  });

  it("round-trips with formatModelId", () => {
    const parsed = parseModelId("compatible:happy-path");
    expect(parsed && formatModelId(parsed)).toBe("compatible:happy-path");
  });
});
