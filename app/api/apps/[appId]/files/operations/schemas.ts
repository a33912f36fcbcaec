import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

const pathSchema = z.string().min(1, "path is required");

export const fileOperationSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("create_file"), path: pathSchema, content: z.string().optional() }),
  z.object({ type: z.literal("create_folder"), path: pathSchema }),
  z.object({ type: z.literal("upload"), path: pathSchema, content_base64: z.base64() }),
  z.object({ type: z.literal("rename"), from: pathSchema, to: pathSchema }),
  z.object({ type: z.literal("delete"), path: pathSchema }),
]);

export const fileOperationsBodySchema = z
  .object({
    base_revision_id: uuidSchema,
    operations: z.array(fileOperationSchema).min(1).max(100),
    message: z.string().max(200).optional(),
  })
  .strict();
