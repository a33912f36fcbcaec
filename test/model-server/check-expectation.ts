import type { StepContext, StepExpectation } from "./scenario";

/** What is wrong with the request against the step's expectation, or null when it holds. */
export function checkExpectation(
  expectation: StepExpectation | undefined,
  context: StepContext,
): string | null {
  if (!expectation) return null;
  const problems: string[] = [];
  for (const text of asList(expectation.tool_result_includes)) {
    if (!context.toolResults.includes(text)) {
      problems.push(`the tool results should contain ${JSON.stringify(text)}`);
    }
  }
  for (const text of asList(expectation.tool_result_excludes)) {
    if (context.toolResults.includes(text)) {
      problems.push(`the tool results should not contain ${JSON.stringify(text)}`);
    }
  }
  const missingTools = (expectation.tools_offered ?? []).filter(
    (name) => !context.offeredTools.includes(name),
  );
  if (missingTools.length > 0) problems.push(`the request should offer ${missingTools.join(", ")}`);
  if (problems.length === 0) return null;

  const received = context.toolResults
    ? `received tool results: ${JSON.stringify(context.toolResults.slice(0, 300))}`
    : "received no tool results after the last assistant message";
  return `${problems.join("; ")} (${received})`;
}

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
