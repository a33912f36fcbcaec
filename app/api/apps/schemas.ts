import { z } from "zod";
import { appNameSchema } from "@/lib/api/schemas";

export const createAppBodySchema = z
  .object({ name: appNameSchema.default("Untitled app") })
  .strict();
