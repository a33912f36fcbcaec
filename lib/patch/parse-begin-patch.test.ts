import { describe, expect, it } from "vitest";
import { extractPatchLines } from "./extract-patch-lines";
import { parseBeginPatch } from "./parse-begin-patch";
import type { ParsedPatch } from "./patch-model";

function parse(lines: string[]): ParsedPatch {
  const outcome = parseBeginPatch(extractPatchLines(lines.join("\n")));
  if (!outcome.ok) throw new Error(`parse failed: ${JSON.stringify(outcome.failure)}`);
  return outcome.patch;
}

function failure(lines: string[]) {
  const outcome = parseBeginPatch(extractPatchLines(lines.join("\n")));
  if (outcome.ok) throw new Error("expected a parse failure");
  return outcome.failure;
}

const body = (patch: ParsedPatch, file = 0, hunk = 0) =>
  patch.files[file].hunks[hunk].lines.map((line) => `${line.kind[0]}:${line.text}`);

describe("parseBeginPatch", () => {
  it("reads add, delete, update and move sections", () => {
    const patch = parse([
      "*** Begin Patch",
      "*** Add File: src/new.ts",
      "+export const a = 1;",
      "",
      "+export const b = 2;",
      "*** Delete File: src/old.ts",
      "*** Update File: src/app.ts",
      "*** Move to: src/main.ts",
      "@@ function main() {",
      "   const x = 1;",
      "-  return x;",
      "+  return x + 1;",
      "*** End Patch",
    ]);
    expect(patch.files.map((file) => [file.kind, file.path, file.targetPath])).toEqual([
      ["add", "src/new.ts", null],
      ["delete", "src/old.ts", null],
      ["rename", "src/app.ts", "src/main.ts"],
    ]);
    expect(body(patch)).toEqual(["a:export const a = 1;", "a:", "a:export const b = 2;"]);
    expect(patch.files[2].hunks[0].anchors).toEqual(["function main() {"]);
    expect(body(patch, 2)).toEqual(["c:  const x = 1;", "d:  return x;", "a:  return x + 1;"]);
  });

  it("reads a first hunk without @@, several hunks, nested anchors and End of File", () => {
    const patch = parse([
      "*** Begin Patch",
      "*** Update File: a.py",
      " import os",
      "-import sys",
      "@@ class Cart:",
      "@@     def total(self):",
      "-        return 0",
      "+        return sum(self.items)",
      "@@",
      " last",
      "+appended",
      "*** End of File",
      "*** End Patch",
    ]);
    const hunks = patch.files[0].hunks;
    expect(hunks.map((hunk) => [hunk.anchors, hunk.endOfFile])).toEqual([
      [[], false],
      [["class Cart:", "def total(self):"], false],
      [[], true],
    ]);
  });

  it("keeps a unified-style @@ header inside Begin Patch as an untrusted hint", () => {
    const patch = parse([
      "*** Begin Patch",
      "*** Update File: a",
      "@@ -12,3 +12,4 @@ main",
      " x",
      "+y",
      "*** End Patch",
    ]);
    expect(patch.files[0].hunks[0]).toMatchObject({
      statedIndex: 11,
      headerTrusted: false,
      anchors: [],
    });
  });

  it("tolerates padded markers, prose around the envelope and two envelopes", () => {
    const patch = parse([
      "Here you go:",
      " *** Begin Patch",
      "  *** Update File: a.txt",
      "@@",
      "-one",
      "+two",
      "*** End Patch",
      "and one more:",
      "*** Begin Patch ",
      "*** Delete File: b.txt",
      " *** End Patch",
      "Done.",
    ]);
    expect(patch.files.map((file) => [file.kind, file.path])).toEqual([
      ["update", "a.txt"],
      ["delete", "b.txt"],
    ]);
  });

  it("reads a context line whose prefix space was lost, drops blank lines at hunk edges", () => {
    const patch = parse([
      "*** Begin Patch",
      "*** Update File: a",
      "@@",
      "",
      "function f() {",
      "-  a();",
      "+  b();",
      "}",
      "",
      "*** End Patch",
    ]);
    expect(body(patch)).toEqual(["c:function f() {", "d:  a();", "a:  b();", "c:}"]);
  });

  it("does not take a context line that starts with @@ for a hunk header", () => {
    const patch = parse([
      "*** Begin Patch",
      "*** Update File: a.diff",
      "@@",
      " @@ -1 +1 @@",
      "-old",
      "+new",
      "*** End Patch",
    ]);
    expect(body(patch)).toEqual(["c:@@ -1 +1 @@", "d:old", "a:new"]);
  });

  it("creates an empty file from an Add File without lines and a pure move from a Move without hunks", () => {
    const patch = parse([
      "*** Begin Patch",
      "*** Add File: empty.txt",
      "*** Update File: a",
      "*** Move to: b",
      "*** End Patch",
    ]);
    expect(patch.files.map((file) => [file.kind, file.hunks.length])).toEqual([
      ["add", 0],
      ["rename", 0],
    ]);
  });

  it.each([
    ["no Begin Patch", ["*** Update File: a"], 1, "*** Begin Patch"],
    [
      "an unknown header",
      ["*** Begin Patch", "*** Frobnicate File: a", "*** End Patch"],
      2,
      "*** Add File: <path>, *** Update File: <path> or *** Delete File: <path>",
    ],
    [
      "a line outside any section",
      ["*** Begin Patch", "-a", "*** End Patch"],
      2,
      "*** Add File: <path>, *** Update File: <path> or *** Delete File: <path>",
    ],
    [
      "an Update File without hunks",
      ["*** Begin Patch", "*** Update File: a", "*** End Patch"],
      2,
      `a hunk ('@@', or lines starting with ' ', '-', '+') after "*** Update File: a"`,
    ],
    [
      "a Move to after a hunk",
      ["*** Begin Patch", "*** Update File: a", "-x", "*** Move to: b", "*** End Patch"],
      4,
      "*** Move to: <path> directly after *** Update File: <path>",
    ],
    [
      "a Move to after a Delete File",
      ["*** Begin Patch", "*** Delete File: a", "*** Move to: b", "*** End Patch"],
      3,
      "*** Move to: <path> directly after *** Update File: <path>",
    ],
    [
      "lines after a Delete File",
      ["*** Begin Patch", "*** Delete File: a", "-x", "*** End Patch"],
      3,
      "the next *** Add File: <path>, *** Update File: <path> or *** Delete File: <path> after *** Delete File",
    ],
    [
      "an Add File line without +",
      ["*** Begin Patch", "*** Add File: a", "x", "*** End Patch"],
      3,
      "a line starting with '+' (the content of *** Add File)",
    ],
    [
      "End of File without a hunk",
      ["*** Begin Patch", "*** Update File: a", "*** End of File", "*** End Patch"],
      3,
      "*** End of File only after the lines of an @@ hunk",
    ],
    [
      "an anchor-only hunk",
      ["*** Begin Patch", "*** Update File: a", "@@ x", "*** End Patch"],
      2,
      "at least one ' ', '-' or '+' line in each @@ hunk",
    ],
    [
      "a header without a path",
      ["*** Begin Patch", "*** Add File:", "*** End Patch"],
      2,
      'a path after "*** Add File:"',
    ],
  ])("fails on %s, naming the line and what was expected", (_, lines, line, expected) => {
    expect(failure(lines)).toMatchObject({ line, expected });
  });
});
