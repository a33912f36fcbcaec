import { z } from "zod";
import { uuidSchema } from "@/lib/api/schemas";

export const revisionParamsSchema = z.object({ appId: uuidSchema, revisionId: uuidSchema });
export const diffQuerySchema = z.object({ against: uuidSchema.optional() });
