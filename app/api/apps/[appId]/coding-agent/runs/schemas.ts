import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

export const createRunBodySchema = z
  .object({
    input: z
      .string()
      .trim()
      .min(1, "input cannot be empty")
      .max(20_000, "input is limited to 20,000 characters"),
    messages: z
      .array(
        z
          .object({ role: z.enum(["user", "assistant"]), content: z.string().max(100_000) })
          .strict(),
      )
      .max(200)
      .optional(),
    model_id: z.string().trim().min(1).max(200).nullable().optional(),
    engine: z.string().trim().min(1).max(100).nullable().optional(),
    approval_policy: z.enum(["ask", "auto"]).nullable().optional(),
  })
  .strict();

export const runParamsSchema = z.object({ appId: uuidSchema, runId: uuidSchema });

/** Event seqs are Postgres integers: anything beyond them is refused before it reaches a query. */
const eventSeqSchema = z.coerce.number().int().min(0).max(2_147_483_647);

export const streamQuerySchema = z.object({ after: eventSeqSchema.optional() });

/** The SSE reconnect header: digits only, within the seq range. */
export const lastEventIdSchema = z
  .string()
  .regex(/^\d+$/, "Last-Event-ID must be a whole number")
  .transform(Number)
  .pipe(z.number().int().min(0).max(2_147_483_647));

export const approvalParamsSchema = z.object({
  appId: uuidSchema,
  runId: uuidSchema,
  approvalId: uuidSchema,
});
export const approvalBodySchema = z
  .object({ decision: z.enum(["accept", "accept_for_session", "decline"]) })
  .strict();
