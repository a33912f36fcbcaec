import { starterHeading } from "@/lib/workspace/starter-template";
import type { Scenario } from "./scenario";
import {
  headingLineNumber,
  headingPatch,
  patchedHeading,
  staleHeadingPatch,
  starterAppPath,
  starterAppSource,
} from "./starter-patches";
import { agentTools } from "./tool-names";

/*
 * Scenarios for a coding-agent run on a new app: they read and patch the starter's
 * src/App.tsx. Patches are computed from the template, so they stay right when it changes.
 */

const summary = [
  "I changed the heading ",
  `in ${starterAppPath} `,
  `from “${starterHeading}” `,
  `to “${patchedHeading}”.`,
];

/** Read, patch, summarise: the run every agent test starts from. */
export function happyPathScenario(): Scenario {
  return {
    name: "happy-path",
    description: `Reads ${starterAppPath}, patches the heading to "${patchedHeading}", summarises.`,
    steps: [
      {
        reasoning: ["The user wants a new heading; ", "read the file before editing it."],
        text: ["I'll update the heading. ", "First, let me read ", `${starterAppPath}.`],
        tool_calls: [{ name: agentTools.readFileRange, arguments: { path: starterAppPath } }],
        usage: { prompt_tokens: 1_200, completion_tokens: 40 },
        expect: { tools_offered: [agentTools.readFileRange, agentTools.applyPatch] },
      },
      {
        text: ["Now I'll replace the heading text."],
        tool_calls: [{ name: agentTools.applyPatch, arguments: { patch: headingPatch() } }],
        usage: { prompt_tokens: 2_600, completion_tokens: 120 },
        expect: { tool_result_includes: starterHeading },
      },
      { text: summary, usage: { prompt_tokens: 2_900, completion_tokens: 30 } },
    ],
  };
}

/** A patch with stale context fails; the model re-reads the lines and patches again. */
export function patchRetryScenario(): Scenario {
  const line = headingLineNumber(starterAppSource());
  return {
    name: "patch-retry",
    description: "A patch with wrong context, then a re-read of the lines, then a good patch.",
    steps: [
      {
        text: ["I'll change the heading right away."],
        tool_calls: [{ name: agentTools.applyPatch, arguments: { patch: staleHeadingPatch() } }],
        usage: { prompt_tokens: 1_200, completion_tokens: 110 },
      },
      {
        text: ["That patch did not apply; ", "let me re-read the lines around the heading."],
        tool_calls: [
          {
            name: agentTools.readFileRange,
            arguments: {
              path: starterAppPath,
              start_line: Math.max(1, line - 5),
              end_line: line + 5,
            },
          },
        ],
        usage: { prompt_tokens: 1_700, completion_tokens: 45 },
      },
      {
        text: ["Now I have the exact lines; ", "patching again."],
        tool_calls: [
          {
            name: agentTools.applyPatch,
            arguments: { patch: headingPatch({ format: "begin-patch" }) },
          },
        ],
        usage: { prompt_tokens: 2_100, completion_tokens: 110 },
        expect: { tool_result_includes: starterHeading },
      },
      { text: summary, usage: { prompt_tokens: 2_400, completion_tokens: 30 } },
    ],
  };
}

/** Broken JSON, then a missing field, then aliased and wrapped arguments, then a good patch. */
export function malformedArgumentsScenario(): Scenario {
  return {
    name: "malformed-args",
    description: "Tool calls with broken JSON and a missing field, then proper calls.",
    steps: [
      {
        text: ["Let me read the app first."],
        tool_calls: [{ name: agentTools.readFileRange, arguments: `{"path": "${starterAppPath}"` }],
        usage: { prompt_tokens: 1_200, completion_tokens: 20 },
      },
      {
        tool_calls: [
          { name: agentTools.readFileRange, arguments: { start_line: 1, end_line: 40 } },
        ],
        usage: { prompt_tokens: 1_300, completion_tokens: 20 },
      },
      {
        text: ["I left out the path; ", "trying again."],
        tool_calls: [
          { name: agentTools.readFileRange, arguments: { input: { file_path: starterAppPath } } },
        ],
        usage: { prompt_tokens: 1_400, completion_tokens: 25 },
        expect: { tool_result_includes: "TOOL_INPUT_VALIDATION_FAILED" },
      },
      {
        tool_calls: [{ name: agentTools.applyPatch, arguments: { patch: headingPatch() } }],
        usage: { prompt_tokens: 2_600, completion_tokens: 110 },
        expect: { tool_result_includes: starterHeading },
      },
      { text: summary, usage: { prompt_tokens: 2_900, completion_tokens: 30 } },
    ],
  };
}

/** Sixty deltas 50 ms apart (3 s) before the patch, for cancel and reconnect tests. */
export function slowStreamScenario(): Scenario {
  const deltaCount = 60;
  return {
    name: "slow-stream",
    description:
      "Streams 60 numbered deltas 50 ms apart, then patches the heading: a run cancelled " +
      "mid-stream never reaches the patch.",
    steps: [
      {
        text: Array.from(
          { length: deltaCount },
          (_, index) => `Chunk ${index + 1} of ${deltaCount}. `,
        ),
        delay_ms_between_chunks: 50,
        tool_calls: [{ name: agentTools.applyPatch, arguments: { patch: headingPatch() } }],
        usage: { prompt_tokens: 1_200, completion_tokens: 400 },
      },
      { text: summary, usage: { prompt_tokens: 1_800, completion_tokens: 30 } },
    ],
  };
}

/**
 * The happy path whose first request answers 429 with a reset 3 s ahead (`retry-after`): the run
 * pauses (`waiting`), resumes at the reset with the same request, and lands its patch.
 */
export function rateLimitedResumeScenario(): Scenario {
  const happy = happyPathScenario();
  const [first, ...rest] = happy.steps;
  if (typeof first === "function") throw new Error("the happy path's first step is static");
  return {
    name: "rate-limited-resume",
    description:
      "The happy path, but its first request is answered 429 with retry-after: 3 once; the same request afterwards plays normally.",
    steps: [{ ...first, status: 429, status_attempts: 1, retry_after_s: 3 }, ...rest],
  };
}

/** Words of the note a run resuming after a rate limit gets (run-executor's `resumedInput`). */
const resumeNote = "paused by the model provider's rate limit";

/**
 * Patches the heading, then its next request is answered 429 (reset 2 s ahead) once: the run
 * pauses with its change kept aside, resumes with a note saying so, and — told its work is in
 * place — finishes without patching again. The run lands as one revision.
 */
export function rateLimitedMidRunScenario(): Scenario {
  return {
    name: "rate-limited-mid-run",
    description:
      "Patch the heading; the next request gets 429 with retry-after: 2 once; resumed, the model sees the note and finishes.",
    steps: [
      (context) =>
        context.lastUserText.includes(resumeNote)
          ? {
              text: ["The heading already says ", `“${patchedHeading}”; `, "nothing more to do."],
              usage: { prompt_tokens: 900, completion_tokens: 20 },
            }
          : {
              text: ["Changing the heading."],
              tool_calls: [{ name: agentTools.applyPatch, arguments: { patch: headingPatch() } }],
              usage: { prompt_tokens: 1_200, completion_tokens: 80 },
            },
      {
        status: 429,
        status_attempts: 1,
        status_scope: "model",
        retry_after_s: 2,
        text: summary,
        usage: { prompt_tokens: 1_500, completion_tokens: 30 },
      },
    ],
  };
}
