import { z } from "zod";
import { appNameSchema } from "@/lib/api/schemas";

export const updateAppBodySchema = z.object({ name: appNameSchema }).strict();
