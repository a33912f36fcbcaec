import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Scenario, scenarioFileSchema } from "./scenario";

/** Reads and validates every `*.json` scenario in a folder; a bad file fails with its name. */
export function loadScenarioDirectory(directory: string): Record<string, Scenario> {
  const scenarios: Record<string, Scenario> = {};
  const files = readdirSync(directory)
    .filter((file) => file.endsWith(".json"))
    .sort();
  for (const file of files) {
    const location = path.join(directory, file);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(location, "utf8"));
    } catch (error) {
      throw new Error(`Scenario file ${location} is not valid JSON`, { cause: error });
    }
    const parsed = scenarioFileSchema.safeParse(json);
    if (!parsed.success) {
      throw new Error(`Scenario file ${location} is invalid: ${parsed.error.message}`);
    }
    if (scenarios[parsed.data.name]) {
      throw new Error(`Scenario "${parsed.data.name}" is defined twice in ${directory}`);
    }
    scenarios[parsed.data.name] = parsed.data;
  }
  return scenarios;
}
