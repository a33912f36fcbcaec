import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

export const publishBodySchema = z.object({ revision_id: uuidSchema.optional() }).strict();
