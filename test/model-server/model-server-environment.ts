import { scenarioNames } from "./scenarios";

/**
 * The environment that points Patchwork at a scripted model server, for tests and Playwright:
 * the server's scenarios become `compatible:<name>` models (the first is what Auto picks).
 * Provider keys are blanked and Ollama detection is off, so a developer's own keys or local
 * Ollama never answer, or bill, a test.
 */
export function modelServerEnvironment(
  url: string,
  names: readonly string[] = scenarioNames,
): Record<string, string> {
  return {
    OPENAI_COMPATIBLE_BASE_URL: url,
    OPENAI_COMPATIBLE_MODELS: names.join(","),
    OPENAI_COMPATIBLE_API_KEY: "",
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    GOOGLE_GENERATIVE_AI_API_KEY: "",
    PATCHWORK_DISABLE_OLLAMA_DETECTION: "1",
  };
}
