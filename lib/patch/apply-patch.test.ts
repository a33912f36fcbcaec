import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import type { PatchResult, PatchSuccess } from "./patch-result";
import { apply, beginPatch, tracked } from "./test-workspace";

function success(result: PatchResult): PatchSuccess {
  if (!result.ok) throw new Error(result.summary);
  return result;
}

describe("applyPatch: operations", () => {
  it("updates a file and reports the change, the plan and no read of other files' keys", () => {
    const { source, keyCalls } = tracked();
    const result = success(
      applyPatch({
        files: source,
        patch: beginPatch(
          "*** Update File: src/cart.ts",
          "@@",
          "-  return sum;",
          "+  return Math.round(sum);",
        ),
      }),
    );
    expect(result.changes).toEqual([
      { path: "src/cart.ts", op: "update", additions: 1, deletions: 1 },
    ]);
    expect(result.updates.get("src/cart.ts")).toContain("  return Math.round(sum);\n}\n");
    expect(result.verification_plan.files_to_check).toEqual(["src/cart.ts"]);
    expect(result.verification_plan.checks.map((check) => check.kind)).toEqual([
      "typecheck",
      "bundle",
      "run_tests",
    ]);
    expect(keyCalls()).toBe(0);
  });

  it("adds, deletes and moves in one atomic patch", () => {
    const result = success(
      apply(
        beginPatch(
          "*** Add File: src/tax.ts",
          "+export const rate = 0.2;",
          "*** Delete File: README.md",
          "*** Update File: src/util.ts",
          "*** Move to: src/lib/util.ts",
          "@@",
          "-export const one = 1;",
          "+export const one = 1 as const;",
        ),
      ),
    );
    expect([...result.updates]).toEqual([
      ["src/tax.ts", "export const rate = 0.2;\n"],
      ["README.md", null],
      ["src/util.ts", null],
      ["src/lib/util.ts", "export const one = 1 as const;\n"],
    ]);
    expect(result.changes).toEqual([
      { path: "src/tax.ts", op: "add", additions: 1, deletions: 0 },
      { path: "README.md", op: "delete", additions: 0, deletions: 1 },
      {
        path: "src/lib/util.ts",
        op: "rename",
        from_path: "src/util.ts",
        additions: 1,
        deletions: 1,
      },
    ]);
    expect(result.verification_plan.removed_paths).toEqual(["README.md", "src/util.ts"]);
  });

  it("applies git renames (pure and with edits) and copies", () => {
    const result = success(
      apply(
        [
          "diff --git a/README.md b/docs/README.md",
          "similarity index 100%",
          "rename from README.md",
          "rename to docs/README.md",
          "diff --git a/src/util.ts b/src/util2.ts",
          "similarity index 80%",
          "copy from src/util.ts",
          "copy to src/util2.ts",
          "--- a/src/util.ts",
          "+++ b/src/util2.ts",
          "@@ -1 +1 @@",
          "-export const one = 1;",
          "+export const two = 2;",
        ].join("\n"),
      ),
    );
    expect([...result.updates]).toEqual([
      ["README.md", null],
      ["docs/README.md", "# Shop\n"],
      ["src/util2.ts", "export const two = 2;\n"],
    ]);
    expect(result.changes.map((change) => [change.op, change.path, change.from_path])).toEqual([
      ["rename", "docs/README.md", "README.md"],
      ["add", "src/util2.ts", "src/util.ts"],
    ]);
  });

  it("verifies the lines of a unified delete, and adds through /dev/null", () => {
    const result = success(
      apply(
        "--- a/src/util.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-export const one = 1;\n--- /dev/null\n+++ b/src/two.ts\n@@ -0,0 +1 @@\n+export const two = 2;\n\\ No newline at end of file\n",
      ),
    );
    expect([...result.updates]).toEqual([
      ["src/util.ts", null],
      ["src/two.ts", "export const two = 2;"],
    ]);
  });

  it("updates whichever of two differently named --- / +++ files exists", () => {
    const result = success(
      apply(
        "--- src/util.ts.orig\n+++ src/util.ts\n@@ -1 +1 @@\n-export const one = 1;\n+export const one = 2;\n",
      ),
    );
    expect([...result.updates.keys()]).toEqual(["src/util.ts"]);
  });

  it("reads patches wrapped in fences and prose, and sections for one file in turn", () => {
    const result = success(
      apply(
        "I'll fix both:\n```diff\n--- a/src/util.ts\n+++ b/src/util.ts\n@@ -1 +1 @@\n-export const one = 1;\n+export const one = 2;\n```\nthen\n```diff\n--- a/src/util.ts\n+++ b/src/util.ts\n@@ -1 +1 @@\n-export const one = 2;\n+export const one = 3;\n```\n",
      ),
    );
    expect(result.updates.get("src/util.ts")).toBe("export const one = 3;\n");
    expect(result.changes).toEqual([
      { path: "src/util.ts", op: "update", additions: 2, deletions: 2 },
    ]);
  });

  it("lists hunks placed with tolerance for review, in the patched file's lines", () => {
    const benign = beginPatch(
      "*** Update File: src/cart.ts",
      "@@",
      "   for (const item of items) sum += item.price;  ",
      "-  return sum;",
      "+  return sum + 0;",
    );
    expect(success(apply(benign)).verification_plan.review).toEqual([]);
    const loose = success(
      apply(
        beginPatch("*** Update File: src/cart.ts", "@@", " \u00a0 return sum;", "+  // done", " }"),
      ),
    );
    expect(loose.verification_plan.review).toEqual([
      {
        path: "src/cart.ts",
        hunk_index: 1,
        start_line: 4,
        end_line: 6,
        tolerance: "surrounding-whitespace",
      },
    ]);
  });

  it("warns about ignored mode changes beside real edits", () => {
    const result = success(
      apply(
        "diff --git a/src/util.ts b/src/util.ts\nold mode 100644\nnew mode 100755\n--- a/src/util.ts\n+++ b/src/util.ts\n@@ -1 +1 @@\n-export const one = 1;\n+export const one = 2;\n",
      ),
    );
    expect(result.warnings).toEqual([
      "Ignored a file mode change for src/util.ts: file modes are not tracked.",
    ]);
  });
});

describe("applyPatch: text rules", () => {
  it.each([
    [
      "keeps a CRLF file CRLF under an LF patch",
      { "a.txt": "one\r\ntwo\r\n" },
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n one\n+one and a half\n two\n",
      "one\r\none and a half\r\ntwo\r\n",
    ],
    [
      "reads a patch saved with CRLF throughout as an LF patch",
      { "a.txt": "one\ntwo\n" },
      "--- a/a.txt\r\n+++ b/a.txt\r\n@@ -1,2 +1,2 @@\r\n one\r\n-two\r\n+2\r\n",
      "one\n2\n",
    ],
    [
      "ends a file with a newline when a Begin Patch edits its last line",
      { "a.txt": "one\ntwo" },
      "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n*** End of File\n*** End Patch\n",
      "one\n2\n",
    ],
    [
      "appends at a stated end of file",
      { "a.txt": "one\ntwo" },
      "*** Begin Patch\n*** Update File: a.txt\n@@\n+three\n*** End of File\n*** End Patch\n",
      "one\ntwo\nthree\n",
    ],
    [
      "removes the final newline when the diff says so",
      { "a.txt": "one\ntwo\n" },
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+two\n\\ No newline at end of file\n",
      "one\ntwo",
    ],
    [
      "takes '--- ./x' and '+++ x' for one file",
      { "a.txt": "one\n" },
      "--- ./a.txt\n+++ a.txt\n@@ -1 +1 @@\n-one\n+1\n",
      "1\n",
    ],
    [
      "re-indents added lines when the patch lost the file's indentation",
      { "a.ts": "class A {\n\trun() {\n\t\tgo();\n\t}\n}\n" },
      "*** Begin Patch\n*** Update File: a.ts\n@@\n run() {\n   go();\n+  stop();\n }\n*** End Patch\n",
      "class A {\n\trun() {\n\t\tgo();\n\t\tstop();\n\t}\n}\n",
    ],
  ])("%s", (_, entries, patch, expected) => {
    const result = success(apply(patch, entries));
    expect(result.updates.get(Object.keys(entries)[0])).toBe(expected);
  });
});
