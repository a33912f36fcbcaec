import { describe, expect, it } from "vitest";
import { extractPatchLines } from "./extract-patch-lines";
import { parseUnifiedDiff } from "./parse-unified-diff";
import type { FilePatch, ParsedPatch } from "./patch-model";

function parse(text: string): ParsedPatch {
  const outcome = parseUnifiedDiff(extractPatchLines(text));
  if (!outcome.ok) throw new Error(`parse failed: ${JSON.stringify(outcome.failure)}`);
  return outcome.patch;
}

function failure(text: string) {
  const outcome = parseUnifiedDiff(extractPatchLines(text));
  if (outcome.ok) throw new Error("expected a parse failure");
  return outcome.failure;
}

const summary = (file: FilePatch) => ({
  kind: file.kind,
  path: file.path,
  targetPath: file.targetPath,
  hunks: file.hunks.length,
});
const bodyOf = (file: FilePatch, hunk = 0) =>
  file.hunks[hunk].lines.map((line) => `${line.kind[0]}:${line.text}`);

describe("parseUnifiedDiff", () => {
  it("reads jsdiff's Index form with its separator line", () => {
    const patch = parse(
      "Index: a.txt\n===================================================================\n--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n",
    );
    expect(patch.files.map(summary)).toEqual([
      { kind: "update", path: "a.txt", targetPath: null, hunks: 1 },
    ]);
    expect(bodyOf(patch.files[0])).toEqual(["c:x", "d:y", "a:z"]);
    expect(patch.files[0].hunks[0]).toMatchObject({ statedIndex: 0, headerTrusted: true });
  });

  it("strips a/ and b/ and dates, and reads several files", () => {
    const patch = parse(
      [
        "--- a/src/one.ts\t2024-01-01 10:00:00 +0000",
        "+++ b/src/one.ts\t2024-01-02 10:00:00 +0000",
        "@@ -3 +3 @@",
        "-a",
        "+b",
        "--- a/two.ts",
        "+++ b/two.ts",
        "@@ -1,1 +1,1 @@",
        "-c",
        "+d",
      ].join("\n"),
    );
    expect(patch.files.map((file) => file.path)).toEqual(["src/one.ts", "two.ts"]);
    expect(patch.files[0].hunks[0].statedIndex).toBe(2);
  });

  it("reads git headers: new, deleted, renamed, copied, mode-only and binary files", () => {
    const patch = parse(
      [
        "diff --git a/new.ts b/new.ts",
        "new file mode 100644",
        "index 0000000..e69de29",
        "--- /dev/null",
        "+++ b/new.ts",
        "@@ -0,0 +1,2 @@",
        "+one",
        "+two",
        "diff --git a/gone.ts b/gone.ts",
        "deleted file mode 100644",
        "--- a/gone.ts",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
        "-bye",
        "diff --git a/old name.ts b/new name.ts",
        "similarity index 100%",
        "rename from old name.ts",
        "rename to new name.ts",
        "diff --git a/src/a.ts b/lib/a.ts",
        "similarity index 90%",
        "copy from src/a.ts",
        "copy to lib/a.ts",
        "--- a/src/a.ts",
        "+++ b/lib/a.ts",
        "@@ -1 +1 @@",
        "-x",
        "+y",
        "diff --git a/run.sh b/run.sh",
        "old mode 100644",
        "new mode 100755",
        "diff --git a/logo.png b/logo.png",
        "index 1111111..2222222 100644",
        "Binary files a/logo.png and b/logo.png differ",
        "diff --git a/empty.txt b/empty.txt",
        "new file mode 100644",
        "index 0000000..e69de29",
      ].join("\n"),
    );
    expect(patch.files.map(summary)).toEqual([
      { kind: "add", path: "new.ts", targetPath: null, hunks: 1 },
      { kind: "delete", path: "gone.ts", targetPath: null, hunks: 1 },
      { kind: "rename", path: "old name.ts", targetPath: "new name.ts", hunks: 0 },
      { kind: "copy", path: "src/a.ts", targetPath: "lib/a.ts", hunks: 1 },
      { kind: "update", path: "logo.png", targetPath: null, hunks: 0 },
      { kind: "add", path: "empty.txt", targetPath: null, hunks: 0 },
    ]);
    expect(patch.files[4].binary).toBe(true);
    expect(patch.warnings).toEqual([
      "Ignored a file mode change for run.sh: file modes are not tracked.",
    ]);
  });

  it("reads git's quoted names and skips a GIT binary patch body", () => {
    const patch = parse(
      [
        'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
        "index 1..2 100644",
        '--- "a/caf\\303\\251.txt"',
        '+++ "b/caf\\303\\251.txt"',
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "diff --git a/bin.dat b/bin.dat",
        "GIT binary patch",
        "literal 5",
        "McmZQzU|?ck00001",
        "",
        "literal 0",
        "HcmV?d00001",
        "",
      ].join("\n"),
    );
    expect(patch.files.map((file) => [file.path, file.binary])).toEqual([
      ["café.txt", false],
      ["bin.dat", true],
    ]);
  });

  it("marks a missing final newline on each side", () => {
    const patch = parse(
      "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n",
    );
    expect(patch.files[0].hunks[0]).toMatchObject({
      oldEndsWithoutNewline: true,
      newEndsWithoutNewline: false,
    });
    const both = parse("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-b\n+c\n\\ No newline at end of file\n");
    expect(both.files[0].hunks[0]).toMatchObject({
      oldEndsWithoutNewline: false,
      newEndsWithoutNewline: true,
    });
  });

  it("reads a body whose header counts are wrong by its shape, and does not trust the header", () => {
    const tooMany = parse("--- a/x\n+++ b/x\n@@ -10,9 +10,9 @@\n a\n-b\n+c\n d\n");
    expect(bodyOf(tooMany.files[0])).toEqual(["c:a", "d:b", "a:c", "c:d"]);
    expect(tooMany.files[0].hunks[0]).toMatchObject({ statedIndex: 9, headerTrusted: false });
    const tooFew = parse(
      "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n a\n-b\n+c\n d\n@@ -20 +20 @@\n-e\n+f\n",
    );
    expect(tooFew.files[0].hunks.map((hunk) => hunk.lines.length)).toEqual([4, 2]);
    expect(tooFew.files[0].hunks[1].headerTrusted).toBe(true);
  });

  it("accepts headers without numbers and reads them as unstated", () => {
    const patch = parse("--- a/x\n+++ b/x\n@@ ... @@\n a\n-b\n+c\n@@\n-d\n+e\n");
    expect(patch.files[0].hunks.map((hunk) => [hunk.statedIndex, hunk.headerTrusted])).toEqual([
      [null, false],
      [null, false],
    ]);
  });

  it("reads an empty line as empty context, and drops blank lines that end a hunk", () => {
    const counted = parse("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n\n\nThanks!\n");
    expect(bodyOf(counted.files[0])).toEqual(["c:a", "c:", "d:b", "a:c"]);
    const byShape = parse("--- a/x\n+++ b/x\n@@\n a\n\n-b\n+c\n\n\nThanks!\n");
    expect(bodyOf(byShape.files[0])).toEqual(["c:a", "c:", "d:b", "a:c"]);
    const countedBlank = parse("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-b\n+c\n\n");
    expect(bodyOf(countedBlank.files[0])).toEqual(["d:b", "a:c", "c:"]);
  });

  it("tells a deleted '-- x' line from a file header, and ends a hunk at prose", () => {
    const patch = parse(
      "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,1 @@\n--- comment\n select 1;\nThat removes the comment.\n",
    );
    expect(bodyOf(patch.files[0])).toEqual(["d:-- comment", "c:select 1;"]);
  });

  it("continues the previous file when a hunk follows prose", () => {
    const patch = parse(
      "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nand further down:\n@@ -9 +9 @@\n-c\n+d\n",
    );
    expect(patch.files).toHaveLength(1);
    expect(patch.files[0].hunks).toHaveLength(2);
  });

  it("remembers a --- / +++ pair naming different files without rename headers", () => {
    const patch = parse("--- a/src/x.ts.orig\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b\n");
    expect(patch.files[0]).toMatchObject({
      kind: "update",
      path: "src/x.ts.orig",
      alternatePath: "src/x.ts",
    });
  });

  it("records that hunk lines carry their own carriage returns", () => {
    expect(parse("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\r\n+b\r\n").carriesLineEndings).toBe(true);
    expect(parse("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n").carriesLineEndings).toBe(false);
  });

  it.each([
    [
      "a hunk before any file header",
      "@@ -1 +1 @@\n-a\n+b\n",
      1,
      "a '--- <path>' and '+++ <path>' pair before the hunk",
    ],
    [
      "a combined merge diff",
      "--- a/x\n+++ b/x\n@@@ -1 -1 +1 @@@\n",
      3,
      "a '@@ -l,s +l,s @@' hunk header (combined merge diffs are not supported)",
    ],
    [
      "a hunk header with no body",
      "--- a/x\n+++ b/x\n@@ -1 +1 @@\nprose\n",
      4,
      "a hunk line starting with ' ', '-' or '+'",
    ],
    [
      "/dev/null on both sides",
      "--- /dev/null\n+++ /dev/null\n",
      1,
      "a file name other than /dev/null on the '---' or '+++' line",
    ],
    [
      "a file header with no hunk",
      "--- a/x\n+++ b/x\nnothing\n",
      3,
      "a '@@ -l,s +l,s @@' hunk header after '+++'",
    ],
  ])("fails on %s, naming the line and what was expected", (_, text, line, expected) => {
    expect(failure(text)).toMatchObject({ line, expected });
  });
});
