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

// Run and tool error codes are in the one list of every code a client can see.
export { runErrorCodes } from "@/lib/error-codes";
