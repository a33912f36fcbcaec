import { isElisionMarker } from "./elision-marker";
import type { LineIndex } from "./line-index";
import { type LineComparison, lineComparisons, normalizeLine } from "./line-tolerance";
import type { HunkPlacement, LocateOutcome } from "./locate-hunk";
import { type Hunk, oldSideLines } from "./patch-model";
import { spendSearchBudget } from "./search-budget";

/** A run of old-side lines between elision markers, placed as a block. */
interface Part {
  /** Index of its first line among the hunk's old-side lines. */
  first: number;
  lines: string[];
  /** It removes lines or has added lines beside it: where it sits decides the result. */
  edits: boolean;
}

// Places of one part considered; more means the part says too little to anchor anything.
const startsPerPart = 64;

/**
 * Context lines that are elision markers ("// ... existing code ...") in the hunk's old side, or
 * an empty list. Such a hunk is a set of parts with gaps of any length between them.
 */
export function elisionMarkerPositions(hunk: Hunk): number[] {
  const positions: number[] = [];
  let oldIndex = 0;
  for (const line of hunk.lines) {
    if (line.kind === "add") continue;
    if (line.kind === "context" && isElisionMarker(line.text)) positions.push(oldIndex);
    oldIndex += 1;
  }
  return positions;
}

/**
 * Places a hunk whose context elides code: each part between markers must be found, in order,
 * and there must be exactly one way to place them all (the strictest comparison that finds one
 * decides). The file lines in each gap stay as they are. Parts of only blank lines anchor
 * nothing and are refused as ambiguous. Returns null when the hunk has no marker.
 */
export function locateElidedHunk(
  index: LineIndex,
  hunk: Hunk,
  bounds: { from: number; until: number },
): LocateOutcome | null {
  const markers = elisionMarkerPositions(hunk);
  if (markers.length === 0) return null;
  const oldLines = oldSideLines(hunk).map((line) => line.text);
  const editing = editingOldLines(hunk);
  const parts: Part[] = [];
  let first = 0;
  for (const marker of [...markers, oldLines.length]) {
    if (marker > first) {
      const edits = editing.slice(first, marker).some(Boolean);
      parts.push({ first, lines: oldLines.slice(first, marker), edits });
    }
    first = marker + 1;
  }
  const refuse = (
    code: "PATCH_CONTEXT_NOT_FOUND" | "PATCH_AMBIGUOUS_MATCH",
    message: string,
  ): LocateOutcome => ({ ok: false, code, message, candidates: [], searchFrom: bounds.from });
  // "…\n+added": the added lines belong somewhere in the gap, which says nowhere in particular.
  if (addedAfterMarker(hunk))
    return refuse(
      "PATCH_AMBIGUOUS_MATCH",
      "the hunk adds lines right after a '...' marker, so where they go in the left-out code is unclear; put unchanged lines between the marker and the added lines",
    );
  if (parts.length === 0 || parts.some((part) => part.lines.every((line) => line.trim() === "")))
    return refuse(
      "PATCH_AMBIGUOUS_MATCH",
      "the hunk's lines between its '...' markers say too little to place it",
    );

  for (const comparison of lineComparisons) {
    const startsOf = parts.map((part) => findStarts(index, comparison, part.lines, bounds));
    // Placements that differ only in where a part of plain context sits write the same result:
    // they count as one. The tightest of them is kept.
    const results = new Map<string, number[]>();
    const chain: number[] = [];
    const span = (starts: number[]) => starts[starts.length - 1] - starts[0];
    const extend = (partIndex: number, after: number) => {
      if (results.size > 1) return;
      if (partIndex === parts.length) {
        const key = chain.filter((_, position) => parts[position].edits).join(",");
        const known = results.get(key);
        if (!known || span(chain) < span(known)) results.set(key, [...chain]);
        return;
      }
      for (const start of startsOf[partIndex]) {
        spendSearchBudget(1);
        if (start < after) continue;
        chain.push(start);
        extend(partIndex + 1, start + parts[partIndex].lines.length);
        chain.pop();
      }
    };
    extend(0, bounds.from);
    if (results.size === 0) continue;
    if (results.size > 1)
      return refuse(
        "PATCH_AMBIGUOUS_MATCH",
        "the parts of the hunk around its '...' markers fit the file in more than one way; include more unchanged lines around the change",
      );
    const [starts] = results.values();
    return { ok: true, placement: placementOf(parts, starts, oldLines.length, comparison) };
  }
  return refuse(
    "PATCH_CONTEXT_NOT_FOUND",
    "the lines around the hunk's '...' markers were not all found in this order",
  );
}

/** Per old-side line: is it removed, or has an added line directly before or after it? */
function editingOldLines(hunk: Hunk): boolean[] {
  const editing: boolean[] = [];
  let addedBefore = false;
  for (const line of hunk.lines) {
    if (line.kind === "add") {
      addedBefore = true;
      if (editing.length > 0) editing[editing.length - 1] = true;
      continue;
    }
    editing.push(line.kind === "delete" || addedBefore);
    addedBefore = false;
  }
  return editing;
}

function addedAfterMarker(hunk: Hunk): boolean {
  return hunk.lines.some(
    (line, position) =>
      line.kind === "add" &&
      position > 0 &&
      hunk.lines[position - 1].kind === "context" &&
      isElisionMarker(hunk.lines[position - 1].text),
  );
}

function findStarts(
  index: LineIndex,
  comparison: LineComparison,
  lines: string[],
  bounds: { from: number; until: number },
): number[] {
  const wanted =
    comparison === "exact" ? lines : lines.map((line) => normalizeLine(line, comparison));
  return index
    .findBlock(comparison, wanted, bounds.from, startsPerPart)
    .filter((start) => start + lines.length <= bounds.until);
}

function placementOf(
  parts: Part[],
  starts: number[],
  oldLineCount: number,
  comparison: LineComparison,
): HunkPlacement {
  const mapping = new Array<number>(oldLineCount).fill(-1);
  parts.forEach((part, partIndex) => {
    part.lines.forEach((_, offset) => {
      mapping[part.first + offset] = starts[partIndex] + offset;
    });
  });
  const last = parts.length - 1;
  return {
    start: starts[0],
    end: starts[last] + parts[last].lines.length,
    mapping,
    tolerance: "elided-context",
    comparison,
  };
}
