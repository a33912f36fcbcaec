import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

export const revisionQuerySchema = z.object({ revision: uuidSchema.optional() });
