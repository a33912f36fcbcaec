import { z } from "zod";
import { isRunOrToolErrorCode } from "@/lib/error-codes";

/**
 * Every run event's payload as a zod schema (PRODUCT.md §3), one discriminated union on `type`.
 * Browser-safe. Tool completions carry tool-specific details beyond the listed keys, so tool
 * payloads are open (`looseObject`); the rest are exact about the keys they name.
 */
const usageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_input_tokens: z.number(),
  cache_creation_input_tokens: z.number(),
  total_cost_usd: z.number().nullable(),
});

const changedFileSchema = z.object({
  path: z.string(),
  status: z.enum(["added", "modified", "deleted"]),
  additions: z.number(),
  deletions: z.number(),
});

const text = z.object({ text: z.string() });

/** A tool's failure for one argument (TOOL_INPUT_VALIDATION_FAILED). */
const toolFieldProblemSchema = z.object({ field: z.string().optional(), message: z.string() });

/** What the panel reads of a tool row beyond its identity; tools may send more (shown as details). */
const toolResultFields = {
  files: z.array(z.string()).optional(),
  additions: z.number().optional(),
  deletions: z.number().optional(),
  diagnostics: z.array(z.record(z.string(), z.unknown())).optional(),
};

export const runEventPayloadSchemas = {
  "run.accepted": z.looseObject({
    requested_model_id: z.string().nullable(),
    resolved_model_id: z.string().nullable(),
    engine: z.string(),
    base_revision_id: z.string().nullable(),
  }),
  "assistant.delta": text,
  "reasoning.delta": text,
  "tool.started": z.looseObject({ call_id: z.string(), tool: z.string(), title: z.string() }),
  "tool.completed": z.looseObject({
    call_id: z.string(),
    tool: z.string(),
    title: z.string(),
    summary: z.string(),
    duration_ms: z.number().optional(),
    ...toolResultFields,
  }),
  "tool.failed": z.looseObject({
    call_id: z.string(),
    tool: z.string(),
    title: z.string().optional(),
    code: z.string(),
    message: z.string(),
    duration_ms: z.number().optional(),
    ...toolResultFields,
    diagnostics: z.array(z.record(z.string(), z.unknown())),
    fields: z.array(toolFieldProblemSchema).optional(),
    /** The patch engine's own code when an edit failed (PATCH_…). */
    patch_code: z.string().optional(),
    patch_failure_count: z.number().optional(),
    recommended_refresh: z.array(z.string()).optional(),
  }),
  "approval.requested": z.object({
    approval_id: z.string(),
    kind: z.enum(["command", "file_change", "permission"]),
    description: z.string(),
    context: z.record(z.string(), z.unknown()),
  }),
  "approval.resolved": z.object({
    approval_id: z.string(),
    decision: z.enum(["accept", "accept_for_session", "decline"]),
    decided_by: z.string().nullable(),
  }),
  usage: usageSchema,
  notice: z.object({
    kind: z.string(),
    message: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  "revision.created": z.object({
    revision_id: z.string(),
    parent_revision_id: z.string().nullable(),
    files_changed: z.array(changedFileSchema),
    additions: z.number(),
    deletions: z.number(),
  }),
  "checkpoint.created": z.object({
    checkpoint_id: z.string(),
    revision_id: z.string(),
    kind: z.string(),
    files_changed: z.array(changedFileSchema).optional(),
    additions: z.number().optional(),
    deletions: z.number().optional(),
  }),
  "run.completed": z.object({ result_revision_id: z.string().nullable(), usage: usageSchema }),
  "run.failed": z.object({
    code: z.string(),
    message: z.string(),
    /** With CODING_AGENT_RATE_LIMITED: when the provider's limit resets (ISO 8601). */
    reset_at: z.string().optional(),
  }),
  "run.cancelled": z.object({ message: z.string() }),
} as const;

export type RunEventPayloads = {
  [Type in keyof typeof runEventPayloadSchemas]: z.infer<(typeof runEventPayloadSchemas)[Type]>;
};

/** One event's type and payload, discriminated on `type`. */
export const typedRunEventSchema = z.discriminatedUnion(
  "type",
  Object.entries(runEventPayloadSchemas).map(([type, payload]) =>
    z.object({ type: z.literal(type), payload }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

export type RunEventPayloadType = keyof typeof runEventPayloadSchemas;
export type RunEventPayload<Type extends RunEventPayloadType> = RunEventPayloads[Type];

/**
 * The payload typed by its event's type, or null when it does not match the contract (an event
 * from an older or newer server): readers skip what they cannot trust instead of guessing.
 */
export function parseRunEventPayload<Type extends RunEventPayloadType>(
  type: Type,
  payload: unknown,
): RunEventPayload<Type> | null {
  const result = runEventPayloadSchemas[type].safeParse(payload);
  return result.success ? (result.data as RunEventPayload<Type>) : null;
}

/**
 * Throws when a payload does not match its type's schema, or carries an error code that is not in
 * the one list (lib/error-codes.ts). The writer checks every event in tests.
 */
export function assertRunEventPayload(type: string, payload: unknown): void {
  const schema = runEventPayloadSchemas[type as RunEventPayloadType];
  if (!schema) throw new Error(`unknown run event type ${type}`);
  const result = schema.safeParse(payload);
  if (!result.success) {
    throw new Error(`invalid ${type} payload: ${z.prettifyError(result.error)}`);
  }
  const code = (result.data as { code?: unknown }).code;
  if ((type === "run.failed" || type === "tool.failed") && typeof code === "string") {
    if (!isRunOrToolErrorCode(code)) throw new Error(`${type} carries unknown code ${code}`);
  }
}
