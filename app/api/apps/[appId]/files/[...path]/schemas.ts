import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

export const filePathParamsSchema = z.object({
  appId: uuidSchema,
  path: z.array(z.string()).min(1),
});

export const saveFileBodySchema = z
  .object({
    content: z.string(),
    base_revision_id: uuidSchema,
    message: z.string().max(200).optional(),
  })
  .strict();

export const deleteFileQuerySchema = z.object({ base_revision_id: uuidSchema });
