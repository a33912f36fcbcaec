import { findGappedPlacements } from "./align-with-gaps";
import type { LineIndex } from "./line-index";
import {
  foldLookalikes,
  type LineComparison,
  lineComparisons,
  normalizeLine,
} from "./line-tolerance";
import { type Hunk, oldSideLines } from "./patch-model";
import type { MatchTolerance } from "./patch-result";

/** Where a hunk's old side sits in the file, and how strictly it matched. */
export interface HunkPlacement {
  /** First file line of the window the hunk replaces (0-based). */
  start: number;
  /** One past the last file line of the window. */
  end: number;
  /** File index of each old-side line; -1 for a context line the file no longer has. */
  mapping: number[];
  tolerance: MatchTolerance;
  /** The comparison the lines matched under. */
  comparison: LineComparison;
}

export type LocateOutcome =
  | { ok: true; placement: HunkPlacement }
  | {
      ok: false;
      code: "PATCH_CONTEXT_NOT_FOUND" | "PATCH_AMBIGUOUS_MATCH";
      message: string;
      /** 0-based starts of equally good matches (ambiguous only). */
      candidates: number[];
      /** Where the search started, for the refresh window when nothing resembles the hunk. */
      searchFrom: number;
    };

const candidateLimit = 6;

/** First line at or after `from` that an `@@ anchor` names: equal under some comparison, else containing it. */
function findAnchor(index: LineIndex, anchor: string, from: number): number {
  for (const comparison of lineComparisons) {
    const key = normalizeLine(anchor, comparison);
    const position = index.positions(comparison, key).find((candidate) => candidate >= from);
    if (position !== undefined) return position;
  }
  // Models shorten anchors ("@@ function total" for "export function total(items) {").
  const wanted = foldLookalikes(anchor).trim();
  if (wanted.length < 3) return -1;
  for (let position = from; position < index.length; position += 1) {
    if (foldLookalikes(index.lines[position]).includes(wanted)) return position;
  }
  return -1;
}

function lineNumbers(starts: readonly number[]): string {
  return starts.map((start) => start + 1).join(", ");
}

/**
 * Places one hunk at or after `from` (the end of the previous hunk), strictest first:
 * exactly at the header's line when the header is trustworthy and no earlier hunk moved;
 * then exactly anywhere; then ignoring trailing whitespace, all surrounding whitespace, and
 * Unicode look-alikes; then with up to two context lines missing or extra. At each step, more
 * than one place is PATCH_AMBIGUOUS_MATCH — unless exactly one of them is where the hunk says
 * it belongs (`*** End of File` or `\ No newline at end of file`). Line numbers alone never
 * choose between equal matches: models get them wrong.
 */
export function locateHunk(
  index: LineIndex,
  hunk: Hunk,
  from: number,
  previousOffset: number,
): LocateOutcome {
  let cursor = from;
  for (const anchor of hunk.anchors) {
    const position = findAnchor(index, anchor, cursor);
    if (position === -1) {
      return {
        ok: false,
        code: "PATCH_CONTEXT_NOT_FOUND",
        message: `the @@ anchor line "${anchor}" was not found${cursor > 0 ? ` after line ${cursor}` : ""}`,
        candidates: [],
        searchFrom: cursor,
      };
    }
    cursor = position + 1;
  }

  const oldLines = oldSideLines(hunk).map((line) => line.text);
  const count = oldLines.length;
  const fileLength = index.length;
  const identity = (start: number) => oldLines.map((_, offset) => start + offset);

  if (count === 0) {
    // Only added lines: the place is known only in an empty file or at a stated end of file.
    if (fileLength === 0 && cursor === 0) {
      return {
        ok: true,
        placement: { start: 0, end: 0, mapping: [], tolerance: "exact", comparison: "exact" },
      };
    }
    if (hunk.endOfFile && cursor <= fileLength) {
      const placement = {
        start: fileLength,
        end: fileLength,
        mapping: [],
        tolerance: "exact" as const,
        comparison: "exact" as const,
      };
      return { ok: true, placement };
    }
    return {
      ok: false,
      code: "PATCH_AMBIGUOUS_MATCH",
      message: "the hunk only adds lines and has no unchanged line to place it",
      candidates: [],
      searchFrom: cursor,
    };
  }

  const statedStart = hunk.statedIndex === null ? null : hunk.statedIndex + previousOffset;
  if (hunk.headerTrusted && previousOffset === 0 && statedStart !== null && statedStart >= cursor) {
    if (index.matchesAt("exact", oldLines, statedStart)) {
      const placement = {
        start: statedStart,
        end: statedStart + count,
        mapping: identity(statedStart),
        tolerance: "exact" as const,
        comparison: "exact" as const,
      };
      return { ok: true, placement };
    }
  }

  const claimsEnd = hunk.endOfFile || hunk.oldEndsWithoutNewline;
  for (const comparison of lineComparisons) {
    const wanted =
      comparison === "exact" ? oldLines : oldLines.map((line) => normalizeLine(line, comparison));
    const starts = index.findBlock(comparison, wanted, cursor, candidateLimit);
    if (starts.length === 0) continue;
    let chosen: number | undefined = starts.length === 1 ? starts[0] : undefined;
    if (chosen === undefined && claimsEnd) {
      const atEnd = starts.filter((start) => start + count === fileLength);
      if (atEnd.length === 1) chosen = atEnd[0];
    }
    if (chosen === undefined) {
      return {
        ok: false,
        code: "PATCH_AMBIGUOUS_MATCH",
        message: `the hunk matches ${starts.length >= candidateLimit ? `at least ${candidateLimit}` : starts.length} places equally well (lines ${lineNumbers(starts)}); add unchanged lines that only one of them has`,
        candidates: starts,
        searchFrom: cursor,
      };
    }
    const moved = statedStart !== null && chosen !== statedStart;
    const tolerance: MatchTolerance =
      comparison === "exact" ? (moved ? "offset" : "exact") : comparison;
    return {
      ok: true,
      placement: {
        start: chosen,
        end: chosen + count,
        mapping: identity(chosen),
        tolerance,
        comparison,
      },
    };
  }

  const gapped = findGappedPlacements(index, hunk, cursor, candidateLimit);
  if (gapped.length === 1) {
    const [placement] = gapped;
    return {
      ok: true,
      placement: {
        start: placement.start,
        end: placement.end,
        mapping: placement.mapping,
        tolerance: "missing-context",
        comparison: "unicode-lookalike",
      },
    };
  }
  if (gapped.length > 1) {
    const starts = gapped.map((placement) => placement.start);
    return {
      ok: false,
      code: "PATCH_AMBIGUOUS_MATCH",
      message: `with a context line missing, the hunk fits ${gapped.length} places (lines ${lineNumbers(starts)}); resend it with the file's current lines`,
      candidates: starts,
      searchFrom: cursor,
    };
  }
  return {
    ok: false,
    code: "PATCH_CONTEXT_NOT_FOUND",
    message: `the hunk's context and removed lines were not found${cursor > 0 ? ` after line ${cursor}` : ""}, even ignoring whitespace and look-alike characters`,
    candidates: [],
    searchFrom: cursor,
  };
}
