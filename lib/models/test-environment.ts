import { afterEach } from "vitest";
import { resetEnvironmentForTests } from "@/lib/env";
import { resetModelDiscoveryCache } from "./list-models";

/** Every variable that decides which models exist; tests start from none of them. */
const modelVariables = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_BASE_URL",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENAI_COMPATIBLE_BASE_URL",
  "OPENAI_COMPATIBLE_API_KEY",
  "OPENAI_COMPATIBLE_MODELS",
  "OLLAMA_BASE_URL",
  "PATCHWORK_DISABLE_OLLAMA_DETECTION",
] as const;

type ModelVariable = (typeof modelVariables)[number];

/**
 * For tests: replaces the model variables with `values` (Ollama detection off unless given, so a
 * developer's own Ollama or keys never change a result) and restores them after each test.
 */
export function setUpModelEnvironment(): (values: Partial<Record<ModelVariable, string>>) => void {
  const saved = new Map<ModelVariable, string | undefined>();
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    saved.clear();
    resetEnvironmentForTests();
    resetModelDiscoveryCache();
  });
  return (values) => {
    for (const name of modelVariables) {
      if (!saved.has(name)) saved.set(name, process.env[name]);
      delete process.env[name];
    }
    Object.assign(process.env, { PATCHWORK_DISABLE_OLLAMA_DETECTION: "1", ...values });
    resetEnvironmentForTests();
    resetModelDiscoveryCache();
  };
}
