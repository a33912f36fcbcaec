import { z } from "zod";
import { previewErrorMessageType } from "@/lib/preview/runtime-error-reporter";

/**
 * A runtime error the draft preview reported. The preview's own code could post anything, so
 * the shape is checked and the text bounded before the builder shows it.
 */
const previewErrorMessageSchema = z.object({
  type: z.literal(previewErrorMessageType),
  kind: z.enum(["error", "unhandledrejection", "console.error"]),
  message: z.string().max(2000),
  frames: z
    .array(z.object({ line: z.number().int().min(1), column: z.number().int().min(1) }))
    .max(8),
});

export type PreviewErrorMessage = z.infer<typeof previewErrorMessageSchema>;

/** The message when it is a well-formed error report, else null (ignored). */
export function parsePreviewErrorMessage(data: unknown): PreviewErrorMessage | null {
  const parsed = previewErrorMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** How a runtime error is named in the overlay and in the message to the agent. */
export const runtimeErrorKindLabels: Record<PreviewErrorMessage["kind"], string> = {
  error: "Uncaught error",
  unhandledrejection: "Unhandled promise rejection",
  "console.error": "console.error",
};
