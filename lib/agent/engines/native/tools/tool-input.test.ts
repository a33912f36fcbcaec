import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  lineNumberSchema,
  normalizeToolInput,
  unparsedArgumentsKey,
  validateToolInput,
} from "./tool-input";

const readSchema = z
  .object({ path: z.string().min(1), start_line: lineNumberSchema.optional() })
  .strict();

describe("normalizeToolInput", () => {
  it.each([
    ["a JSON string", '{"path":"src/App.tsx"}'],
    ["a twice-encoded JSON string", JSON.stringify('{"path":"src/App.tsx"}')],
    ["an input wrapper", { input: { path: "src/App.tsx" } }],
    ["nested wrappers", { args: { parameters: { path: "src/App.tsx" } } }],
    ["a wrapper holding a JSON string", { payload: '{"file_path":"src/App.tsx"}' }],
    ["file_path", { file_path: "src/App.tsx" }],
    ["filePath", { filePath: "src/App.tsx" }],
  ])("accepts %s", (_name, raw) => {
    expect(normalizeToolInput(raw)).toEqual({ path: "src/App.tsx" });
  });

  it("keeps the canonical name when both a name and its alias are present", () => {
    expect(normalizeToolInput({ filePath: "b", path: "a" })).toEqual({ path: "a" });
  });
});

describe("validateToolInput", () => {
  it("coerces numeric strings for line numbers", () => {
    expect(validateToolInput(readSchema, { path: "a", start_line: "3" })).toEqual({
      ok: true,
      value: { path: "a", start_line: 3 },
    });
  });

  it("names each missing or wrong field", () => {
    const result = validateToolInput(readSchema, { start_line: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) throw new Error("unreachable");
    expect(result.fields.map((field) => field.field).sort()).toEqual(["path", "start_line"]);
  });

  it("reports arguments that were not JSON", () => {
    const result = validateToolInput(readSchema, { [unparsedArgumentsKey]: '{"path": "src/App' });
    expect(result).toMatchObject({ ok: false, fields: [{ field: "(arguments)" }] });
  });
});
