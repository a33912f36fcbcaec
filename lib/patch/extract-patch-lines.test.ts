import { describe, expect, it } from "vitest";
import { extractPatchLines } from "./extract-patch-lines";

const texts = (patch: string) => extractPatchLines(patch).map((line) => line.text);

describe("extractPatchLines", () => {
  it("keeps a bare patch whole, numbering lines from 1", () => {
    const lines = extractPatchLines("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    expect(lines.map((line) => line.text)).toEqual([
      "--- a/x",
      "+++ b/x",
      "@@ -1 +1 @@",
      "-a",
      "+b",
    ]);
    expect(lines[3].number).toBe(4);
  });

  it("keeps only fenced blocks that hold a patch, dropping prose and other code", () => {
    const patch = [
      "Here is the fix:",
      "```ts",
      "const unrelated = 1;",
      "```",
      "```diff",
      "--- a/x",
      "+++ b/x",
      "```",
      "Let me know.",
    ].join("\n");
    expect(texts(patch)).toEqual(["--- a/x", "+++ b/x"]);
    expect(extractPatchLines(patch)[0].number).toBe(6);
  });

  it("joins several fenced patch blocks in order and reads an unclosed fence to the end", () => {
    const patch = "```\n*** Begin Patch\n```\ntext\n````diff\n@@\n-a\n```\n+b";
    expect(texts(patch)).toEqual(["*** Begin Patch", "@@", "-a", "```", "+b"]);
  });

  it("does not treat a prefixed fence inside a patched markdown file as a fence", () => {
    const patch =
      "```diff\n--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,3 @@\n ```ts\n-a\n+b\n```\n";
    expect(texts(patch)).toEqual([
      "--- a/README.md",
      "+++ b/README.md",
      "@@ -1,3 +1,3 @@",
      " ```ts",
      "-a",
      "+b",
    ]);
  });

  it("records carriage returns only when the patch does not use CRLF throughout", () => {
    const mixed = extractPatchLines("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\r\n+b\r\n");
    expect(mixed.map((line) => line.carriageReturn)).toEqual([false, false, false, true, true]);
    const transported = extractPatchLines("--- a/x\r\n+++ b/x\r\n-a\r\n");
    expect(transported.every((line) => !line.carriageReturn)).toBe(true);
    expect(transported[2].text).toBe("-a");
  });

  it("strips a byte-order mark and handles empty input", () => {
    expect(texts("\uFEFF*** Begin Patch\n")).toEqual(["*** Begin Patch"]);
    expect(extractPatchLines("")).toEqual([]);
  });
});
