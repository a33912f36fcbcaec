import { describe, expect, it } from "vitest";
import { summarizeFailures } from "./failure-summary";
import type { PatchFailureDetail } from "./patch-result";

const detail = (overrides: Partial<PatchFailureDetail>): PatchFailureDetail => ({
  path: "src/App.tsx",
  hunk_index: 2,
  code: "PATCH_CONTEXT_NOT_FOUND",
  message: "the hunk's context and removed lines were not found",
  expected_lines: [],
  nearest_match: null,
  ...overrides,
});

describe("summarizeFailures", () => {
  it("names the hunk, the nearest match and the fix in one sentence", () => {
    const summary = summarizeFailures([
      detail({ nearest_match: { start_line: 41, similarity: 0.78 } }),
    ]);
    expect(summary).toBe(
      "Hunk 2 of src/App.tsx: the hunk's context and removed lines were not found (closest: line 41, 78% alike); re-read the refresh window and resend the hunk with the file's current lines (nothing was changed).",
    );
    expect(summary.match(/\. /g)).toBeNull();
  });

  it("speaks of the patch or the file when no hunk is involved", () => {
    expect(
      summarizeFailures([
        detail({
          path: null,
          hunk_index: null,
          code: "PATCH_EMPTY",
          message: "it holds no file operation",
        }),
      ]),
    ).toBe(
      "The patch: it holds no file operation; send at least one file operation that adds or removes lines (nothing was changed).",
    );
    expect(
      summarizeFailures([
        detail({ hunk_index: null, code: "PATCH_FILE_EXISTS", message: "it already exists" }),
      ]),
    ).toMatch(/^src\/App\.tsx: it already exists; choose a free path, or update the existing file/);
  });

  it("counts several failures and spells out the first", () => {
    const summary = summarizeFailures([
      detail({}),
      detail({ path: "b.ts", code: "PATCH_AMBIGUOUS_MATCH" }),
    ]);
    expect(summary).toMatch(/^2 problems in 2 files, first — Hunk 2 of src\/App\.tsx: /);
    expect(summary).toMatch(/resend the whole patch \(nothing was changed\)\.$/);
  });
});
