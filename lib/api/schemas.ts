import { z } from "zod";

/** Route params and bodies shared by several handlers; each route's own schema sits beside it. */
export const uuidSchema = z.string().uuid("must be a UUID");
export const appParamsSchema = z.object({ appId: uuidSchema });
export const appNameSchema = z
  .string()
  .trim()
  .min(1, "name cannot be empty")
  .max(80, "name is limited to 80 characters");
