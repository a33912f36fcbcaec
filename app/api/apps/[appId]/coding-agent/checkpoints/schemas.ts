import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

export const createCheckpointBodySchema = z
  .object({ label: z.string().trim().max(120).default(""), revision_id: uuidSchema.optional() })
  .strict();
export const checkpointParamsSchema = z.object({ appId: uuidSchema, checkpointId: uuidSchema });
