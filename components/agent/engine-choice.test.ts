import { describe, expect, it } from "vitest";
import type { EngineStatusJson } from "@/lib/api/serializers";
import { engineChoiceProblem } from "./engine-choice";

const codex: EngineStatusJson = {
  id: "codex",
  label: "Codex",
  available: true,
  reason: null,
  code: null,
  version: "0.169.0",
  model_providers: ["openai", "compatible"],
  model_requirement: "Codex needs a provider that speaks the OpenAI Responses API.",
};

describe("engineChoiceProblem", () => {
  it("lets an installed engine run a model of a provider it speaks, and Auto", () => {
    expect(engineChoiceProblem(codex, "compatible:qwen")).toBeNull();
    expect(engineChoiceProblem(codex, "openai:gpt-5.5")).toBeNull();
    expect(engineChoiceProblem(codex, "auto")).toBeNull();
  });

  it("says what the engine needs for a model it cannot use", () => {
    expect(engineChoiceProblem(codex, "anthropic:claude-haiku-4-5")).toBe(
      "Codex needs a provider that speaks the OpenAI Responses API.",
    );
  });

  it("gives the install reason for an engine that is not available, whatever the model", () => {
    const missing = { ...codex, available: false, reason: "Run npm run engines:install." };
    expect(engineChoiceProblem(missing, "compatible:qwen")).toBe("Run npm run engines:install.");
  });

  it("accepts any model for an engine that names no providers (the native agent)", () => {
    const native = { ...codex, id: "native", model_providers: null, model_requirement: null };
    expect(engineChoiceProblem(native, "anthropic:claude-haiku-4-5")).toBeNull();
  });
});
