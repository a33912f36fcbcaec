import { describe, expect, it } from "vitest";
import { LineIndex } from "./line-index";
import { buildPatchFailure, fileFailure, hunkFailure } from "./patch-failure";
import { emptyHunk } from "./patch-model";

const index = new LineIndex([
  "function a() {",
  "  return 1;",
  "}",
  "",
  "function b() {",
  "  return 2;",
  "}",
]);
const hunk = {
  ...emptyHunk(3),
  lines: [
    { kind: "context" as const, text: "function b() {", carriageReturn: false },
    { kind: "delete" as const, text: "  return 3;", carriageReturn: false },
  ],
};

describe("hunkFailure", () => {
  it("names the nearest match and the first line that differs, with a window around it", () => {
    const entry = hunkFailure(
      "a.ts",
      hunk,
      {
        hunkIndex: 0,
        code: "PATCH_CONTEXT_NOT_FOUND",
        message: "not found",
        candidates: [],
        searchFrom: 0,
      },
      index,
    );
    expect(entry.detail).toMatchObject({
      hunk_index: 1,
      nearest_match: { start_line: 5 },
      expected_lines: ["function b() {", "  return 3;"],
    });
    expect(entry.detail.message).toBe(
      'not found; line 6 reads "  return 2;" where the hunk expects "  return 3;"',
    );
    expect(entry.windows).toEqual([{ path: "a.ts", lines: index.lines, start: -2, end: 12 }]);
  });

  it("lists every candidate of an ambiguous hunk", () => {
    const entry = hunkFailure(
      "a.ts",
      hunk,
      {
        hunkIndex: 1,
        code: "PATCH_AMBIGUOUS_MATCH",
        message: "twice",
        candidates: [0, 4],
        searchFrom: 0,
      },
      index,
    );
    expect(entry.detail).toMatchObject({
      hunk_index: 2,
      candidate_lines: [1, 5],
      nearest_match: { start_line: 1, similarity: 1 },
    });
    expect(entry.windows).toHaveLength(2);
  });
});

describe("buildPatchFailure", () => {
  it("takes the first failure's code and merges windows", () => {
    const failure = buildPatchFailure([
      fileFailure("x.ts", "PATCH_FILE_NOT_FOUND", "gone"),
      fileFailure(null, "PATCH_EMPTY", "empty"),
    ]);
    expect(failure).toMatchObject({ ok: false, code: "PATCH_FILE_NOT_FOUND", refresh_windows: [] });
    expect(failure.failures).toHaveLength(2);
  });
});
