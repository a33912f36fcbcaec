import { findGappedPlacements } from "./align-with-gaps";
import { locateElidedHunk } from "./elided-hunk";
import type { LineIndex } from "./line-index";
import {
  foldLookalikes,
  type LineComparison,
  lineComparisons,
  normalizeLine,
} from "./line-tolerance";
import { type Hunk, oldSideLines } from "./patch-model";
import type { MatchTolerance } from "./patch-result";
import { spendSearchBudget } from "./search-budget";
import { statedPlaceRivals } from "./stated-place-conflict";

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
    spendSearchBudget(1);
    if (foldLookalikes(index.lines[position]).includes(wanted)) return position;
  }
  return -1;
}

function lineNumbers(starts: readonly number[]): string {
  return starts.map((start) => start + 1).join(", ");
}

/**
 * How far the file has moved from the header's line numbers, as measured by the neighbouring
 * hunks already placed: `lines` is added to the header's line; `agreed` is false when the hunks
 * before and after disagree, so the header's position proves nothing.
 */
export interface MeasuredOffset {
  lines: number;
  agreed: boolean;
}

/**
 * Places one hunk in the file lines `from` (the end of the previous hunk) to `until` (the start
 * of the next, when known), strictest first: exactly at the header's line (moved by the offset
 * its neighbours measured) when the header is trustworthy; then exactly anywhere; then ignoring
 * trailing whitespace, all surrounding whitespace, and Unicode look-alikes; then with one
 * context line missing or extra. At each step, more than one place is PATCH_AMBIGUOUS_MATCH —
 * unless exactly one of them is where a trustworthy header or an end-of-file claim
 * (`*** End of File`, `\ No newline at end of file`) puts it. Line numbers never choose between
 * equal matches otherwise: models get them wrong. And a match away from the header's line is
 * refused when the header's line holds nearly the same lines (see {@link statedPlaceRivals}).
 */
export function locateHunk(
  index: LineIndex,
  hunk: Hunk,
  bounds: { from: number; until: number },
  offset: MeasuredOffset,
): LocateOutcome {
  let cursor = bounds.from;
  const until = Math.min(bounds.until, index.length);
  for (const anchor of hunk.anchors) {
    const position = findAnchor(index, anchor, cursor);
    if (position === -1 || position >= until) {
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

  const elided = locateElidedHunk(index, hunk, { from: cursor, until });
  if (elided) return elided;

  const oldLines = oldSideLines(hunk).map((line) => line.text);
  const count = oldLines.length;
  const fileLength = index.length;
  const identity = (start: number) => oldLines.map((_, offset) => start + offset);
  const refuse = (
    code: "PATCH_CONTEXT_NOT_FOUND" | "PATCH_AMBIGUOUS_MATCH",
    message: string,
    candidates: number[] = [],
  ): LocateOutcome => ({
    ok: false,
    code,
    message,
    candidates,
    searchFrom: cursor,
  });

  if (count === 0) {
    // Only added lines: the place is known only in an empty file or at a stated end of file.
    if (fileLength === 0 && cursor === 0) {
      return {
        ok: true,
        placement: { start: 0, end: 0, mapping: [], tolerance: "exact", comparison: "exact" },
      };
    }
    if (hunk.endOfFile && cursor <= fileLength && bounds.until >= fileLength) {
      return {
        ok: true,
        placement: {
          start: fileLength,
          end: fileLength,
          mapping: [],
          tolerance: "exact",
          comparison: "exact",
        },
      };
    }
    return refuse(
      "PATCH_AMBIGUOUS_MATCH",
      "the hunk only adds lines and has no unchanged line to place it",
    );
  }

  const statedStart = hunk.statedIndex === null ? null : hunk.statedIndex + offset.lines;
  // A header whose counts agree with its body was made by a tool from the file as it was; its
  // line, moved as its neighbours moved, may pick between equal matches — nothing else may.
  const trustedStart =
    hunk.headerTrusted &&
    offset.agreed &&
    statedStart !== null &&
    statedStart >= cursor &&
    statedStart + count <= until
      ? statedStart
      : null;
  if (trustedStart !== null && index.matchesAt("exact", oldLines, trustedStart)) {
    return {
      ok: true,
      placement: {
        start: trustedStart,
        end: trustedStart + count,
        mapping: identity(trustedStart),
        tolerance: "exact",
        comparison: "exact",
      },
    };
  }
  const rivalled = (start: number, mapping: readonly number[]) =>
    statedStart !== null &&
    statedPlaceRivals(index, hunk, oldLines, statedStart, { start, mapping });
  const rivalMessage = (chosen: number) =>
    `the hunk matches at line ${chosen + 1}, but line ${(statedStart ?? 0) + 1}, where its header puts it, holds nearly the same lines: the file changed where the patch was aimed, so re-read both places`;

  const claimsEnd = hunk.endOfFile || hunk.oldEndsWithoutNewline;
  for (const comparison of lineComparisons) {
    const wanted =
      comparison === "exact" ? oldLines : oldLines.map((line) => normalizeLine(line, comparison));
    const starts = index
      .findBlock(comparison, wanted, cursor, candidateLimit + 1)
      .filter((start) => start + count <= until);
    if (starts.length === 0) continue;
    let chosen: number | undefined = starts.length === 1 ? starts[0] : undefined;
    if (
      chosen === undefined &&
      trustedStart !== null &&
      index.matchesAt(comparison, wanted, trustedStart)
    )
      chosen = trustedStart;
    if (chosen === undefined && claimsEnd) {
      const atEnd = starts.filter((start) => start + count === fileLength);
      if (atEnd.length === 1) chosen = atEnd[0];
    }
    if (chosen === undefined) {
      const shown = starts.slice(0, candidateLimit);
      const many =
        starts.length > candidateLimit ? `more than ${candidateLimit}` : String(starts.length);
      return refuse(
        "PATCH_AMBIGUOUS_MATCH",
        `the hunk matches ${many} places equally well (lines ${lineNumbers(shown)})`,
        shown,
      );
    }
    if (rivalled(chosen, identity(chosen)))
      return refuse("PATCH_AMBIGUOUS_MATCH", rivalMessage(chosen), [chosen, statedStart ?? chosen]);
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

  const gapped = findGappedPlacements(index, hunk, { from: cursor, until }, candidateLimit);
  if (gapped.length === 1) {
    const [placement] = gapped;
    if (rivalled(placement.start, placement.mapping))
      return refuse("PATCH_AMBIGUOUS_MATCH", rivalMessage(placement.start), [
        placement.start,
        statedStart ?? placement.start,
      ]);
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
    return refuse(
      "PATCH_AMBIGUOUS_MATCH",
      `with a context line missing, the hunk fits ${gapped.length} places (lines ${lineNumbers(starts)}); resend it with the file's current lines`,
      starts,
    );
  }
  // Models list hunks out of order; say so rather than leave them guessing.
  const wantedLoosely = oldLines.map((line) => normalizeLine(line, "unicode-lookalike"));
  const earlier = index
    .findBlock("unicode-lookalike", wantedLoosely, 0, 1)
    .find((start) => start + count <= cursor);
  const hint =
    earlier === undefined
      ? ""
      : `; it matches line ${earlier + 1}, above the previous hunk: list hunks in file order`;
  return refuse(
    "PATCH_CONTEXT_NOT_FOUND",
    `the hunk's context and removed lines were not found${cursor > 0 ? ` after line ${cursor}` : ""}, even ignoring whitespace and look-alike characters${hint}`,
  );
}
