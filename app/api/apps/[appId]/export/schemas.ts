import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

export const exportQuerySchema = z.object({
  format: z.enum(["zip", "git"]).default("zip"),
  revision: uuidSchema.optional(),
});
