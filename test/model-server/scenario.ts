import { z } from "zod";

/** One tool call the scripted model makes. A string `arguments` is sent as is, even if broken. */
export const scriptedToolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
});

/**
 * What a step requires of the request that reaches it, so a test learns that the agent fed
 * the previous step's tool results back. Checked only on requests that offer tools.
 */
export const stepExpectationSchema = z.strictObject({
  /** Text the tool results after the last assistant message must contain (each string). */
  tool_result_includes: z.union([z.string(), z.array(z.string())]).optional(),
  /** Text those tool results must not contain. */
  tool_result_excludes: z.union([z.string(), z.array(z.string())]).optional(),
  /** Tool names the request must offer. */
  tools_offered: z.array(z.string()).optional(),
});

/** One scripted answer: one model call of the agent's tool loop. */
export const stepSchema = z.strictObject({
  /** Text deltas, streamed in order. */
  text: z.array(z.string()).optional(),
  /** Reasoning deltas (`reasoning_content`), streamed before the text. */
  reasoning: z.array(z.string()).optional(),
  tool_calls: z.array(scriptedToolCallSchema).optional(),
  /** Reported usage; estimated from the characters when absent. */
  usage: z
    .strictObject({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      cached_tokens: z.number().int().nonnegative().optional(),
    })
    .optional(),
  delay_ms_between_chunks: z.number().nonnegative().optional(),
  /** Wait before the response headers (time to first byte). */
  delay_ms_before: z.number().nonnegative().optional(),
  /** Answer this HTTP error status (e.g. 429, 500) with an OpenAI-style error body instead. */
  status: z.number().int().min(400).max(599).optional(),
  /**
   * How many attempts at this step of the same conversation get `status` before the step plays
   * normally; every attempt fails when absent. A retry repeats the request, so it is counted.
   */
  status_attempts: z.number().int().positive().optional(),
  /**
   * What `status_attempts` counts: attempts with the same conversation (the default: a fresh
   * run fails again), or every attempt at this step of this model (`model`: a second run — a
   * Retry, whose conversation includes the failed turn — finds the outage over).
   */
  status_scope: z.enum(["conversation", "model"]).optional(),
  /** Sent as `retry-after` (seconds) and `retry-after-ms` with an error status. */
  retry_after_s: z.number().nonnegative().optional(),
  error_message: z.string().optional(),
  /** Send the headers and the text/reasoning chunks, then never finish. */
  hang: z.boolean().optional(),
  /** `count` text deltas as fast as possible, after `text`; `{i}` in `text` becomes the index. */
  repeat_text: z
    .strictObject({ count: z.number().int().nonnegative(), text: z.string() })
    .optional(),
  expect: stepExpectationSchema.optional(),
});

export type ScriptedToolCall = z.infer<typeof scriptedToolCallSchema>;
export type StepExpectation = z.infer<typeof stepExpectationSchema>;
export type Step = z.infer<typeof stepSchema>;

/** A scenario as stored in `scenarios/*.json`: only static steps. */
export const scenarioFileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lowercase letters, digits, '.', '_' or '-'"),
  description: z.string().optional(),
  steps: z.array(stepSchema),
});

/** What a programmed step sees of the request it answers. */
export interface StepContext {
  stepIndex: number;
  /** The text of the last user message. */
  lastUserText: string;
  /** The tool results after the last assistant message, with strings inside JSON spelled out. */
  toolResults: string;
  offeredTools: string[];
}

/** A step computed from the request, for scenarios written in TypeScript. */
export type StepBuilder = (context: StepContext) => Step;

/** A script the server plays; the request's `model` picks it by `name`. */
export interface Scenario {
  name: string;
  description?: string;
  steps: (Step | StepBuilder)[];
}

/** The answer to every request past the end of a script, so that agent loops terminate. */
export const finalStep: Step = { text: ["Done."] };
