import { z } from "zod";

/**
 * The run event contract of PRODUCT.md §3, shared by the server (which writes them) and the
 * browser (which renders them). Browser-safe: no server imports here.
 */
export const runEventTypes = [
  "run.accepted",
  "assistant.delta",
  "reasoning.delta",
  "tool.started",
  "tool.completed",
  "tool.failed",
  "approval.requested",
  "approval.resolved",
  "usage",
  "notice",
  "revision.created",
  "checkpoint.created",
  "run.completed",
  "run.failed",
  "run.cancelled",
] as const;

export type RunEventType = (typeof runEventTypes)[number];

export const terminalRunEventTypes = ["run.completed", "run.failed", "run.cancelled"] as const;
export type TerminalRunEventType = (typeof terminalRunEventTypes)[number];

export function isTerminalRunEventType(type: string): type is TerminalRunEventType {
  return (terminalRunEventTypes as readonly string[]).includes(type);
}

export const runEventSchema = z.object({
  seq: z.number().int().positive(),
  run_id: z.string(),
  app_id: z.string(),
  type: z.enum(runEventTypes),
  ts: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

export type RunEvent = z.infer<typeof runEventSchema>;

/** Error codes a run can end with or a tool can fail with, beyond the HTTP ones. */
export const runErrorCodes = {
  interrupted: "CODING_AGENT_RUN_INTERRUPTED",
  modelError: "CODING_AGENT_MODEL_ERROR",
  modelTimeout: "CODING_AGENT_MODEL_TIMEOUT",
  rateLimited: "CODING_AGENT_RATE_LIMITED",
  iterationLimit: "CODING_AGENT_ITERATION_LIMIT",
  revisionConflict: "REVISION_CONFLICT",
  internal: "CODING_AGENT_INTERNAL_ERROR",
  toolInputValidation: "TOOL_INPUT_VALIDATION_FAILED",
  toolTimeout: "TOOL_TIMEOUT",
  toolDeclined: "TOOL_APPROVAL_DECLINED",
  engineCrashed: "CODING_AGENT_ENGINE_CRASHED",
  engineUnavailable: "CODING_AGENT_ENGINE_UNAVAILABLE",
  engineUnsupportedRuntime: "CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME",
  budgetExceeded: "CODING_AGENT_BUDGET_EXCEEDED",
  loopDetected: "CODING_AGENT_LOOP_DETECTED",
} as const;
