import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import { patchErrorDescriptions } from "./error-codes";
import { apply, beginPatch, tracked } from "./test-workspace";

describe("applyPatch: every error code, nothing changed", () => {
  const update = (path: string, ...lines: string[]) =>
    beginPatch(`*** Update File: ${path}`, ...lines);
  const cases: [
    string,
    string,
    Record<string, string | undefined> | undefined,
    keyof typeof patchErrorDescriptions,
    RegExp,
  ][] = [
    [
      "unreadable text",
      "Please apply my change.",
      undefined,
      "PATCH_PARSE_FAILED",
      /line 1: expected/,
    ],
    ["an empty Begin Patch", beginPatch(), undefined, "PATCH_EMPTY", /holds no file operation/],
    [
      "a mode-only diff",
      "diff --git a/x b/x\nold mode 100644\nnew mode 100755\n",
      undefined,
      "PATCH_EMPTY",
      /file modes/,
    ],
    [
      "identical - and + lines",
      update("README.md", "@@", "-# Shop", "+# Shop"),
      undefined,
      "PATCH_EMPTY",
      /would change nothing/,
    ],
    [
      "a climbing path",
      beginPatch("*** Add File: ../evil.ts", "+x"),
      undefined,
      "PATCH_PATH_POLICY_VIOLATION",
      /climbs out/,
    ],
    [
      "an add over a file",
      beginPatch("*** Add File: README.md", "+x"),
      undefined,
      "PATCH_FILE_EXISTS",
      /already exists/,
    ],
    [
      "a move onto a file",
      update("src/util.ts", "*** Move to: README.md", "@@", "-export const one = 1;", "+x"),
      undefined,
      "PATCH_FILE_EXISTS",
      /moved onto/,
    ],
    [
      "an update of a missing file",
      update("src/Cart.ts", "@@", "-x", "+y"),
      undefined,
      "PATCH_FILE_NOT_FOUND",
      /did you mean src\/cart\.ts/,
    ],
    [
      "a delete of a directory",
      beginPatch("*** Delete File: src"),
      undefined,
      "PATCH_PATH_IS_DIRECTORY",
      /directory/,
    ],
    [
      "an add over a directory",
      beginPatch("*** Add File: src", "+x"),
      undefined,
      "PATCH_PATH_IS_DIRECTORY",
      /directory/,
    ],
    [
      "an add under a file",
      beginPatch("*** Add File: README.md/notes.md", "+x"),
      undefined,
      "PATCH_PARENT_IS_FILE",
      /README\.md is a file/,
    ],
    [
      "an edit of a binary file",
      update("logo.png", "@@", "-x", "+y"),
      undefined,
      "PATCH_FILE_NOT_TEXT",
      /binary/,
    ],
    [
      "a binary diff",
      "diff --git a/logo.png b/logo.png\nBinary files a/logo.png and b/logo.png differ\n",
      undefined,
      "PATCH_BINARY_NOT_SUPPORTED",
      /binary diff/,
    ],
    [
      "a stale hunk",
      update("src/cart.ts", "@@", "-  return total;", "+  return 0;"),
      undefined,
      "PATCH_CONTEXT_NOT_FOUND",
      /not found/,
    ],
    [
      "a duplicated block",
      update("a.ts", "@@", " x();", "-y();", "+z();"),
      { "a.ts": "x();\ny();\nx();\ny();\n" },
      "PATCH_AMBIGUOUS_MATCH",
      /2 places/,
    ],
    [
      "a context-less insertion",
      update("README.md", "@@", "+more"),
      undefined,
      "PATCH_AMBIGUOUS_MATCH",
      /only adds lines/,
    ],
    [
      "a partial delete",
      "--- a/a.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-x();\n",
      { "a.ts": "x();\ny();\n" },
      "PATCH_DELETE_INCOMPLETE",
      /lists only 1 of its 2 lines/,
    ],
    [
      "a hunk that swaps code for a placeholder",
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,2 @@\n x();\n-y();\n+// ... existing code ...\n z();\n",
      { "a.ts": "x();\ny();\nz();\n" },
      "PATCH_LAZY_PLACEHOLDER",
      /removes 1 line \("y\(\);"\)/,
    ],
    [
      "a patch already applied",
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n x();\n-y();\n+w();\n z();\n",
      { "a.ts": "x();\nw();\nz();\n" },
      "PATCH_ALREADY_APPLIED",
      /already holds this hunk's result at line 1/,
    ],
    [
      "a pure insertion already made",
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,3 @@\n x();\n y();\n+w();\n",
      { "a.ts": "x();\ny();\nw();\n" },
      "PATCH_ALREADY_APPLIED",
      /already holds this hunk's result at line 1/,
    ],
    [
      "a change already made where the header points, its old lines still in a copy far below",
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,2 @@\n a();\n-b();\n c();\n",
      { "a.ts": `a();\nc();\n${"z();\n".repeat(20)}a();\nb();\nc();\n` },
      "PATCH_ALREADY_APPLIED",
      /where its header points \(its old lines also match at line 23\)/,
    ],
    [
      "hunks that would take too long to place",
      `--- a/x.txt\n+++ b/x.txt\n${"@@ -1,7 +1,7 @@\n x\n x\n x\n-x\n+q\n x\n z\n w\n".repeat(1000)}`,
      { "x.txt": "x\n".repeat(100_000) },
      "PATCH_TOO_COMPLEX",
      /more searching than allowed/,
    ],
  ];

  it.each(cases)("refuses %s", (_, patch, entries, code, message) => {
    const result = apply(patch, entries);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe(code);
    expect(result.failures[0].message).toMatch(message);
    expect(result.summary).toMatch(/nothing was changed\)\.$/);
  });

  it("covers every code but the CLI's write failure", () => {
    const covered = new Set(cases.map((entry) => entry[3]));
    expect(
      Object.keys(patchErrorDescriptions).filter(
        (code) => !covered.has(code as keyof typeof patchErrorDescriptions),
      ),
    ).toEqual(["PATCH_WRITE_FAILED"]);
  });

  it("refuses hostile paths before reading any file", () => {
    const { source, reads, keyCalls } = tracked();
    const result = applyPatch({
      files: source,
      patch: beginPatch(
        "*** Update File: src/cart.ts",
        "@@",
        "-  return sum;",
        "+  return 0;",
        "*** Add File: /etc/cron.d/x",
        "+* * * * * root sh",
        "*** Delete File: src/.git/config",
      ),
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.failures.map((failure) => [failure.code, failure.path])).toEqual([
        ["PATCH_PATH_POLICY_VIOLATION", "/etc/cron.d/x"],
        ["PATCH_PATH_POLICY_VIOLATION", "src/.git/config"],
      ]);
    expect(reads).toEqual([]);
    expect(keyCalls()).toBe(0);
  });

  it("reports every failing hunk and file, with nearest matches and refresh windows, applying none", () => {
    const result = apply(
      [
        "--- a/src/cart.ts",
        "+++ b/src/cart.ts",
        "@@ -1,3 +1,3 @@",
        " export function total(items) {",
        "-  let sum = 1;",
        "+  let sum = 0.0;",
        "   for (const item of items) sum += item.price;",
        "--- a/src/util.ts",
        "+++ b/src/util.ts",
        "@@ -1 +1 @@",
        "-export const one = 1;",
        "+export const one = 2;",
        "--- a/missing.ts",
        "+++ b/missing.ts",
        "@@ -1 +1 @@",
        "-a",
        "+b",
      ].join("\n"),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(
      result.failures.map((failure) => [failure.code, failure.path, failure.hunk_index]),
    ).toEqual([
      ["PATCH_CONTEXT_NOT_FOUND", "src/cart.ts", 1],
      ["PATCH_FILE_NOT_FOUND", "missing.ts", null],
    ]);
    expect(result.failures[0].message).toMatch(
      /; line 2 reads " {2}let sum = 0;" where the hunk expects " {2}let sum = 1;"$/,
    );
    expect(result.failures[0].expected_lines).toEqual([
      "export function total(items) {",
      "  let sum = 1;",
      "  for (const item of items) sum += item.price;",
    ]);
    expect(result.failures[0].nearest_match).toEqual({ start_line: 1, similarity: 0.94 });
    expect(result.refresh_windows).toEqual([
      {
        path: "src/cart.ts",
        start_line: 1,
        end_line: 5,
        content:
          "1 | export function total(items) {\n2 |   let sum = 0;\n3 |   for (const item of items) sum += item.price;\n4 |   return sum;\n5 | }",
      },
    ]);
    expect(result.summary).toMatch(
      /^2 problems in 2 files, first — Hunk 1 of src\/cart\.ts: .*closest: line 1, 94% alike/,
    );
  });

  it("names every equally good place of an ambiguous hunk", () => {
    const result = apply(beginPatch("*** Update File: a.ts", "@@", " x();", "-y();", "+z();"), {
      "a.ts": "x();\ny();\nq();\nx();\ny();\n",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failures[0]).toMatchObject({
      candidate_lines: [1, 4],
      nearest_match: { start_line: 1, similarity: 1 },
    });
    expect(result.refresh_windows.map((window) => [window.start_line, window.end_line])).toEqual([
      [1, 5],
    ]);
  });

  it("names the patch line of a parse failure", () => {
    const result = apply(beginPatch("*** Update File: a.ts", "@@", "-x", "*** Frobnicate"));
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.failures[0]).toMatchObject({
        path: null,
        patch_line: 5,
        code: "PATCH_PARSE_FAILED",
      });
  });
});
