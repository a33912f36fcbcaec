import path from "node:path";
import {
  happyPathScenario,
  malformedArgumentsScenario,
  patchRetryScenario,
  rateLimitedMidRunScenario,
  rateLimitedResumeScenario,
  slowStreamScenario,
} from "./agent-scenarios";
import { devDemoScenario } from "./dev-demo-scenario";
import { engineScenarios } from "./engine-scenarios";
import { loadScenarioDirectory } from "./load-scenario-directory";
import type { Scenario } from "./scenario";

/** The folder of the built-in JSON scenarios. */
export const builtInScenarioDirectory = path.join(import.meta.dirname, "scenarios");

/** Every built-in scenario; `dev-demo` first, so `Auto` picks it under `npm run dev:model`. */
export const scenarioNames = [
  "dev-demo",
  "happy-path",
  "patch-retry",
  "malformed-args",
  "slow-stream",
  "long-stream",
  "server-error",
  "rate-limited",
  "rate-limited-resume",
  "rate-limited-long",
  "rate-limited-mid-run",
  "hang",
  "text-only",
  "codex-edit-heading",
  "codex-edit-then-wait",
  "codex-hang",
  "opencode-edit-heading",
  "opencode-edit-then-wait",
  "claude-edit-heading",
  "claude-edit-then-wait",
] as const;

export type ScenarioName = (typeof scenarioNames)[number];

/**
 * The built-in scenarios by name: the static ones from `scenarios/*.json`, and the ones that
 * read and patch the starter app, programmed here so they follow the template when it changes.
 */
export function builtInScenarios(): Record<ScenarioName, Scenario> {
  const programmed = [
    devDemoScenario(),
    happyPathScenario(),
    patchRetryScenario(),
    malformedArgumentsScenario(),
    slowStreamScenario(),
    rateLimitedResumeScenario(),
    rateLimitedMidRunScenario(),
    ...engineScenarios(),
  ];
  const all: Record<string, Scenario> = {
    ...loadScenarioDirectory(builtInScenarioDirectory),
    ...Object.fromEntries(programmed.map((scenario) => [scenario.name, scenario])),
  };
  const missing = scenarioNames.filter((name) => !all[name]);
  if (missing.length > 0) throw new Error(`Built-in scenarios missing: ${missing.join(", ")}`);
  return Object.fromEntries(scenarioNames.map((name) => [name, all[name]])) as Record<
    ScenarioName,
    Scenario
  >;
}
