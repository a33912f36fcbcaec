import { z } from "zod";
import { appNameSchema } from "@/lib/api/schemas";

export const importAppQuerySchema = z.object({ name: appNameSchema });
