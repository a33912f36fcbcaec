import { describe, expect, it } from "vitest";
import { parsePatch } from "./parse-patch";

describe("parsePatch", () => {
  it("picks the format by the Begin Patch marker", () => {
    const begin = parsePatch("*** Begin Patch\n*** Delete File: a\n*** End Patch\n");
    expect(begin.ok && begin.patch.format).toBe("begin-patch");
    const unified = parsePatch("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    expect(unified.ok && unified.patch.format).toBe("unified");
  });

  it("reads a patch inside a markdown fence with prose around it", () => {
    const outcome = parsePatch(
      "Sure — here is the change:\n\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\n\n- it renames a to b\n",
    );
    expect(
      outcome.ok && outcome.patch.files.map((file) => [file.path, file.hunks[0].lines.length]),
    ).toEqual([["x", 2]]);
  });

  it("refuses a unified diff beside a Begin Patch envelope rather than drop it", () => {
    const outcome = parsePatch(
      "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n*** Begin Patch\n*** Delete File: y\n*** End Patch\n",
    );
    expect(outcome).toMatchObject({ ok: false, failure: { line: 1, found: "--- a/x" } });
  });

  it("asks for *** Begin Patch when a model forgot it", () => {
    expect(parsePatch("*** Update File: a\n@@\n-x\n+y\n")).toEqual({
      ok: false,
      failure: {
        line: 1,
        expected: "*** Begin Patch before the first file header",
        found: "*** Update File: a",
      },
    });
  });

  it("fails on text that holds no patch, and parses blank text to no files", () => {
    const prose = parsePatch("\nI could not find the file.\n");
    expect(prose.ok).toBe(false);
    if (!prose.ok)
      expect(prose.failure).toMatchObject({ line: 2, found: "I could not find the file." });
    const blank = parsePatch("  \n\n");
    expect(blank.ok && blank.patch.files).toEqual([]);
  });

  it("parses a mode-only git diff to no files but a warning", () => {
    const outcome = parsePatch("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n");
    expect(outcome.ok && [outcome.patch.files.length, outcome.patch.warnings.length]).toEqual([
      0, 1,
    ]);
  });
});
