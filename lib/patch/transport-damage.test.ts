import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import { decodeEscapedPatch } from "./parse-patch";

const file = "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n";
const files = new Map([["src/x.ts", file]]);
const diff =
  '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,3 +1,3 @@\n export const a = 1;\n-export const b = 2;\n+export const b = "two";\n export const c = 3;\n';
const expected = 'export const a = 1;\nexport const b = "two";\nexport const c = 3;\n';

describe("patches damaged in transport", () => {
  it("decodes a patch JSON-escaped onto one line, quoted or not", () => {
    const escaped = JSON.stringify(diff);
    for (const text of [escaped, escaped.slice(1, -1)]) {
      const result = applyPatch({ files, patch: text });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.updates.get("src/x.ts")).toBe(expected);
    }
  });

  it("decodes by hand when the escaping left a bare quote", () => {
    expect(decodeEscapedPatch('--- a/x\\n+++ b/x\\n@@\\n-"a"\\n+b"\\n')).toBe(
      '--- a/x\n+++ b/x\n@@\n-"a"\n+b"\n',
    );
  });

  it("leaves real multi-line text alone", () => {
    expect(decodeEscapedPatch(diff)).toBeNull();
    expect(decodeEscapedPatch("a\nb\nc\nd with \\n inside")).toBeNull();
  });

  it("reads a *** Begin Patch without its *** End Patch", () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/x.ts",
      "@@",
      " export const a = 1;",
      "-export const b = 2;",
      '+export const b = "two";',
    ].join("\n");
    const result = applyPatch({ files, patch });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("src/x.ts")).toBe(expected);
  });

  it("picks the one fenced block that is a patch out of prose with several", () => {
    const reply = [
      "Here is the current code:",
      "```ts",
      "export const b = 2;",
      "```",
      "And the change:",
      "```diff",
      diff.trimEnd(),
      "```",
    ].join("\n");
    const result = applyPatch({ files, patch: reply });
    expect(result.ok).toBe(true);
  });
});

describe("hunk headers models get wrong", () => {
  const body = [" export const a = 1;", "-export const b = 2;", '+export const b = "two";'];

  it.each([
    ["no @@ line at all after ---/+++", ["--- a/src/x.ts", "+++ b/src/x.ts", ...body]],
    ["@@ @@", ["--- a/src/x.ts", "+++ b/src/x.ts", "@@ @@", ...body]],
    ["@@ ... @@", ["--- a/src/x.ts", "+++ b/src/x.ts", "@@ ... @@", ...body]],
    [
      "@@ -1 +1 @@ on a hunk elsewhere",
      ["--- a/src/x.ts", "+++ b/src/x.ts", "@@ -1 +1 @@", ...body],
    ],
  ])("places a hunk by its content with %s", (_, lines) => {
    const result = applyPatch({ files, patch: `${lines.join("\n")}\n` });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("src/x.ts")).toBe(expected);
  });
});

describe("one context line a word off", () => {
  const source = [
    "export function total(items) {",
    "  let sum = 0;",
    "  for (const item of items) sum += item.price;",
    "  return sum;",
    "}",
    "",
  ].join("\n");
  const sources = new Map([["total.ts", source]]);

  it("is tolerated when every removed line matches exactly; the file's line stays", () => {
    const patch =
      "--- a/total.ts\n+++ b/total.ts\n@@ -1,4 +1,4 @@\n export function total(items) {\n   let total = 0;\n-  for (const item of items) sum += item.price;\n+  for (const item of items) sum += item.price * item.quantity;\n   return sum;\n";
    const result = applyPatch({ files: sources, patch });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("total.ts")).toBe(
      source.replace("item.price;", "item.price * item.quantity;"),
    );
  });

  it("is refused when the removed line is the one that differs (a stale patch)", () => {
    const patch =
      "--- a/total.ts\n+++ b/total.ts\n@@ -1,4 +1,4 @@\n export function total(items) {\n   let sum = 0;\n-  for (const item of items) sum += item.cost;\n+  for (const item of items) sum += item.cost * 2;\n   return sum;\n";
    expect(applyPatch({ files: sources, patch }).ok).toBe(false);
  });
});

describe("line endings and the final newline", () => {
  const patch = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n";

  it("keeps the file's final newline when the marker sits on an unchanged last line", () => {
    const result = applyPatch({ files: new Map([["x", "a\nb\nc\n"]]), patch });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("x")).toBe("A\nb\nc\n");
  });

  it("keeps a missing final newline the marker describes", () => {
    const result = applyPatch({ files: new Map([["x", "a\nb\nc"]]), patch });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("x")).toBe("A\nb\nc");
  });

  it("writes added lines with the file's line ending, never mixed", () => {
    const added = "--- a/x\n+++ b/x\n@@ -1,3 +1,4 @@\n a\n+new\n b\n c\n";
    const result = applyPatch({ files: new Map([["x", "a\r\nb\r\nc\r\n"]]), patch: added });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("x")).toBe("a\r\nnew\r\nb\r\nc\r\n");
  });
});
