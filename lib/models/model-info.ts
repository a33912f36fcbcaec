import { z } from "zod";

/** Where a model comes from; `auto` is the pseudo-model that resolves to the first available one. */
export const modelProviderSchema = z.enum([
  "auto",
  "openai",
  "anthropic",
  "google",
  "compatible",
  "ollama",
]);

export type ModelProvider = z.infer<typeof modelProviderSchema>;

/**
 * One entry of `GET /api/models`. `reason` says why an entry is unavailable and what to set,
 * so the UI can grey it out with a useful hint. It never carries a secret.
 */
export const modelInfoSchema = z.object({
  id: z.string(),
  provider: modelProviderSchema,
  label: z.string(),
  available: z.boolean(),
  reason: z.string().optional(),
});

export type ModelInfo = z.infer<typeof modelInfoSchema>;

/** The id a request sends (or leaves out) to let the server pick a model. */
export const autoModelId = "auto";
