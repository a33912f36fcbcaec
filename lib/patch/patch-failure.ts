import type { HunkFailure } from "./apply-hunks";
import type { PatchErrorCode } from "./error-codes";
import { summarizeFailures } from "./failure-summary";
import type { LineIndex } from "./line-index";
import { normalizeLine } from "./line-tolerance";
import { findNearestMatch } from "./nearest-match";
import { type Hunk, oldSideLines } from "./patch-model";
import type { PatchFailure, PatchFailureDetail } from "./patch-result";
import { buildRefreshWindows, type WindowRequest, windowAround } from "./refresh-windows";

/** A failure detail and the spans of the file the model should re-read for it. */
export interface FailureEntry {
  detail: PatchFailureDetail;
  windows: WindowRequest[];
}

const maximumExpectedLines = 60;
const maximumAmbiguousWindows = 3;
const maximumQuotedLength = 120;

function clip(text: string): string {
  return JSON.stringify(
    text.length > maximumQuotedLength ? `${text.slice(0, maximumQuotedLength)}…` : text,
  );
}

/** Where the closest block first differs from the hunk — usually the line that changed. */
function firstDifference(index: LineIndex, expected: readonly string[], start: number): string {
  for (let offset = 0; offset < expected.length; offset += 1) {
    const actual = index.lines[start + offset];
    if (actual === undefined) return "";
    if (
      normalizeLine(actual, "unicode-lookalike") !==
      normalizeLine(expected[offset], "unicode-lookalike")
    ) {
      return `; line ${start + offset + 1} reads ${clip(actual)} where the hunk expects ${clip(expected[offset])}`;
    }
  }
  return "";
}

/** A failure about a whole file (or, with a null path, the whole patch). */
export function fileFailure(
  path: string | null,
  code: PatchErrorCode,
  message: string,
): FailureEntry {
  return {
    detail: { path, hunk_index: null, code, message, expected_lines: [], nearest_match: null },
    windows: [],
  };
}

/**
 * Describes a hunk that could not be placed: what it expected, where the file looks most like
 * it (or every equally good place, when ambiguous), and the current lines around those places.
 */
export function hunkFailure(
  path: string,
  hunk: Hunk,
  failure: HunkFailure,
  index: LineIndex,
): FailureEntry {
  const expected = oldSideLines(hunk).map((line) => line.text);
  const detail: PatchFailureDetail = {
    path,
    hunk_index: failure.hunkIndex + 1,
    code: failure.code,
    message: failure.message,
    expected_lines: expected.slice(0, maximumExpectedLines),
    nearest_match: null,
  };
  const windows: WindowRequest[] = [];
  if (failure.candidates.length > 0) {
    detail.candidate_lines = failure.candidates.map((start) => start + 1);
    detail.nearest_match = { start_line: failure.candidates[0] + 1, similarity: 1 };
    for (const start of failure.candidates.slice(0, maximumAmbiguousWindows)) {
      windows.push(windowAround(path, index.lines, start, expected.length));
    }
    return { detail, windows };
  }
  const hint = hunk.statedIndex ?? failure.searchFrom;
  const nearest = findNearestMatch(index, expected, hint);
  if (nearest) {
    detail.nearest_match = { start_line: nearest.start + 1, similarity: nearest.similarity };
    detail.message += firstDifference(index, expected, nearest.start);
    windows.push(windowAround(path, index.lines, nearest.start, expected.length));
  } else if (hunk.statedIndex !== null || failure.searchFrom > 0) {
    windows.push(windowAround(path, index.lines, hint, expected.length));
  }
  return { detail, windows };
}

/** The failure envelope: the first failure's code, one summary sentence, every detail and window. */
export function buildPatchFailure(entries: readonly FailureEntry[]): PatchFailure {
  const details = entries.map((entry) => entry.detail);
  // A patch of thousands of failing hunks would otherwise answer megabytes nobody can act on.
  const reported = entries.slice(0, maximumReportedFailures);
  return {
    ok: false,
    code: details[0].code,
    summary: summarizeFailures(details),
    failures: reported.map((entry) => entry.detail),
    ...(entries.length > reported.length
      ? { omitted_failures: entries.length - reported.length }
      : {}),
    refresh_windows: buildRefreshWindows(reported.flatMap((entry) => entry.windows)),
  };
}

/** Failures listed in full; the summary still counts them all. */
export const maximumReportedFailures = 20;
