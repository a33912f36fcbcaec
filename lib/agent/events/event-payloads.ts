import { z } from "zod";

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
  }),
  "tool.failed": z.looseObject({
    call_id: z.string(),
    tool: z.string(),
    title: z.string().optional(),
    code: z.string(),
    message: z.string(),
    diagnostics: z.array(z.unknown()),
    duration_ms: z.number().optional(),
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
  "run.failed": z.object({ code: z.string(), message: z.string() }),
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

/** Throws when a payload does not match its type's schema (the writer checks in tests). */
export function assertRunEventPayload(type: string, payload: unknown): void {
  const schema = runEventPayloadSchemas[type as keyof typeof runEventPayloadSchemas];
  if (!schema) throw new Error(`unknown run event type ${type}`);
  const result = schema.safeParse(payload);
  if (!result.success) {
    throw new Error(`invalid ${type} payload: ${z.prettifyError(result.error)}`);
  }
}
