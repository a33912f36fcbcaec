import { z } from "zod";

export interface ToolInputField {
  field: string;
  message: string;
}

export type ToolInputResult<Value> =
  | { ok: true; value: Value }
  | { ok: false; fields: ToolInputField[]; message: string };

/** Where models put arguments besides the top level: we unwrap these before validating. */
const wrapperKeys = ["input", "args", "arguments", "parameters", "params", "payload"];
/** Names models use for a path; all mean `path` (or `from`/`to` for moves). */
const pathAliases: Record<string, string> = {
  file_path: "path",
  filePath: "path",
  filepath: "path",
  file: "path",
  filename: "path",
  fromPath: "from_path",
  toPath: "to_path",
  startLine: "start_line",
  endLine: "end_line",
  diff: "patch",
  patch_text: "patch",
  text: "content",
};

/** Set by the tool-call repair hook when the model's arguments were not JSON at all. */
export const unparsedArgumentsKey = "__unparsed_arguments";

/**
 * Normalises what a model sent as tool arguments: JSON strings are parsed (twice-encoded too),
 * a lone wrapper object is unwrapped, and path aliases are renamed. Validation comes after.
 */
export function normalizeToolInput(raw: unknown): unknown {
  let value = raw;
  for (let depth = 0; depth < 3; depth += 1) {
    if (typeof value === "string") {
      const parsed = tryParseJson(value);
      if (parsed === undefined) return value;
      value = parsed;
      continue;
    }
    if (isPlainObject(value)) {
      const keys = Object.keys(value);
      const wrapper = keys.length === 1 && wrapperKeys.includes(keys[0]) ? keys[0] : undefined;
      if (wrapper) {
        value = value[wrapper];
        continue;
      }
    }
    break;
  }
  if (!isPlainObject(value)) return value;
  const renamed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const canonical = pathAliases[key] ?? key;
    if (!(canonical in renamed) || key === canonical) renamed[canonical] = item;
  }
  return renamed;
}

/** Normalises then validates; failures list each bad field so the model can correct itself. */
export function validateToolInput<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
): ToolInputResult<z.infer<Schema>> {
  if (isPlainObject(raw) && typeof raw[unparsedArgumentsKey] === "string") {
    return {
      ok: false,
      fields: [{ field: "(arguments)", message: "the arguments were not valid JSON" }],
      message:
        "The tool arguments were not valid JSON. Send a JSON object with the documented fields.",
    };
  }
  const normalized = normalizeToolInput(raw);
  const parsed = schema.safeParse(normalized);
  if (parsed.success) return { ok: true, value: parsed.data };
  const fields = parsed.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join(".") : "(arguments)",
    message: issue.message,
  }));
  return {
    ok: false,
    fields,
    message: `Invalid tool arguments: ${fields.map((field) => `${field.field}: ${field.message}`).join("; ")}.`,
  };
}

function tryParseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[") && !trimmed.startsWith('"'))
    return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Line numbers as models send them: numbers or numeric strings, 1-based. */
export const lineNumberSchema = z.coerce
  .number()
  .int("must be a whole number")
  .min(1, "lines start at 1");
