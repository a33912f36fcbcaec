import { readdirSync } from "node:fs";
import { applyPatch } from "diff";
import { describe, expect, it } from "vitest";
import { starterHeading } from "@/lib/workspace/starter-template";
import { findHeading, requestedHeading } from "./dev-demo-scenario";
import { loadScenarioDirectory } from "./load-scenario-directory";
import { modelServerEnvironment } from "./model-server-environment";
import type { Step, StepContext } from "./scenario";
import { builtInScenarioDirectory, builtInScenarios, scenarioNames } from "./scenarios";
import {
  headingPatch,
  patchedHeading,
  staleHeadingPatch,
  starterAppSource,
} from "./starter-patches";

function context(overrides: Partial<StepContext>): StepContext {
  return {
    stepIndex: 1,
    lastUserText: "",
    toolResults: "",
    offeredTools: ["apply_patch"],
    ...overrides,
  };
}

/** The `patch` argument of the step's first tool call. */
function patchOf(step: Step): string {
  const argumentsValue = step.tool_calls?.[0]?.arguments;
  if (typeof argumentsValue !== "object" || typeof argumentsValue.patch !== "string") {
    throw new Error("the step has no apply_patch call");
  }
  return argumentsValue.patch;
}

describe("built-in scenarios", () => {
  it("define every name in scenarioNames, each JSON file valid", () => {
    const scenarios = builtInScenarios();
    expect(Object.keys(scenarios)).toEqual([...scenarioNames]);
    const files = readdirSync(builtInScenarioDirectory).filter((file) => file.endsWith(".json"));
    expect(Object.keys(loadScenarioDirectory(builtInScenarioDirectory))).toHaveLength(files.length);
    for (const [name, scenario] of Object.entries(scenarios)) expect(scenario.name).toBe(name);
  });

  it("patch the starter heading with a diff that applies to the current template", () => {
    const patched = applyPatch(starterAppSource(), headingPatch());
    expect(patched).not.toBe(false);
    expect(patched).toContain(patchedHeading);
    expect(patched).not.toContain(starterHeading);
    expect(applyPatch(starterAppSource(), staleHeadingPatch())).toBe(false);
    expect(headingPatch({ format: "begin-patch" })).toMatch(
      /^\*\*\* Begin Patch\n\*\*\* Update File: src\/App\.tsx\n@@\n[\s\S]*\*\*\* End Patch\n$/,
    );
  });
});

describe("dev-demo", () => {
  const source = starterAppSource();
  const formats: Record<string, (line: string, number: number) => string> = {
    "colon numbered": (line, number) => `${number}: ${line}`,
    "pipe numbered": (line, number) => `${String(number).padStart(4)} | ${line}`,
    // What the native agent's read_file_range renders.
    "read_file_range numbered": (line, number) => `${String(number).padStart(3)}| ${line}`,
    "tab numbered": (line, number) => `${number}\t${line}`,
    "not numbered": (line) => line,
  };

  for (const [format, numberLine] of Object.entries(formats)) {
    it(`patches the heading it finds in a ${format} read`, () => {
      const read = source
        .split("\n")
        .map((line, index) => numberLine(line, index + 1))
        .join("\n");
      const toolResults = `${JSON.stringify({ content: read })}\n${read}`;
      expect(findHeading(toolResults)?.text).toBe(starterHeading);

      const step = builtInScenarios()["dev-demo"].steps[1];
      if (typeof step !== "function") throw new Error("dev-demo step 1 is programmed");
      const answer = step(
        context({ toolResults, lastUserText: 'Make the heading say "Hi there"' }),
      );
      const patched = applyPatch(source, patchOf(answer));
      expect(patched).toContain("Hi there");
      expect(patched).not.toContain(starterHeading);
    });
  }

  it("explains itself when the read has no heading", () => {
    const step = builtInScenarios()["dev-demo"].steps[1];
    if (typeof step !== "function") throw new Error("dev-demo step 1 is programmed");
    const answer = step(context({ toolResults: "export const x = 1;" }));
    expect(answer.tool_calls).toBeUndefined();
    expect(answer.text?.join("")).toContain("couldn't find");
  });

  it("takes the new heading from quotes, from 'say …', or picks one", () => {
    expect(requestedHeading("Change the title to “Welcome aboard”", "x")).toBe("Welcome aboard");
    expect(requestedHeading("make the heading say Hello world!", "x")).toBe("Hello world");
    expect(requestedHeading("do something", "Launch")).toBe(patchedHeading);
    expect(requestedHeading("do something", patchedHeading)).toBe("Built with Patchwork");
  });
});

describe("modelServerEnvironment", () => {
  it("points the compatible provider at the server and keeps real providers out", () => {
    expect(modelServerEnvironment("http://127.0.0.1:4010/v1", ["happy-path", "hang"])).toEqual({
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:4010/v1",
      OPENAI_COMPATIBLE_MODELS: "happy-path,hang",
      OPENAI_COMPATIBLE_API_KEY: "",
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      GOOGLE_GENERATIVE_AI_API_KEY: "",
      PATCHWORK_DISABLE_OLLAMA_DETECTION: "1",
    });
    expect(modelServerEnvironment("u").OPENAI_COMPATIBLE_MODELS?.split(",")).toEqual([
      ...scenarioNames,
    ]);
  });
});
