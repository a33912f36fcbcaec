import { z } from "zod";
import { providerSettingIds } from "@/db/schema";

export const providerParamsSchema = z.object({ provider: z.enum(providerSettingIds) });

// Keys are opaque tokens: printable ASCII, no spaces (a pasted line break is trimmed first).
const apiKeySchema = z
  .string()
  .trim()
  .min(8, "api_key is too short to be an API key")
  .max(1000, "api_key is limited to 1000 characters")
  .regex(/^[\x21-\x7e]+$/, "api_key may contain only printable characters without spaces");

const baseUrlSchema = z
  .string()
  .trim()
  .max(2000, "base_url is limited to 2000 characters")
  .url("base_url must be a URL such as http://127.0.0.1:1234/v1")
  .refine((value) => /^https?:$/.test(new URL(value).protocol), "base_url must be http or https")
  .refine((value) => {
    const url = new URL(value);
    return url.username === "" && url.password === "";
  }, "base_url may not hold a user name or password; put the key in api_key")
  .transform((value) => value.replace(/\/+$/, ""));

const modelNamesSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(/^[^,\s]+$/, "a model name has no commas or spaces"),
  )
  .max(50, "at most 50 models");

/** PUT: absent api_key keeps the saved one; null removes it (endpoints that need no key). */
export const saveProviderBodySchema = z
  .object({
    api_key: apiKeySchema.nullable().optional(),
    base_url: baseUrlSchema.optional(),
    models: modelNamesSchema.optional(),
  })
  .strict();

/** POST …/test: values not saved yet, else the ones in use. */
export const checkProviderBodySchema = z
  .object({ api_key: apiKeySchema.optional(), base_url: baseUrlSchema.optional() })
  .strict();
