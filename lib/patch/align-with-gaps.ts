import type { LineIndex } from "./line-index";
import { normalizeLine } from "./line-tolerance";
import { lineSimilarity } from "./nearest-match";
import type { Hunk } from "./patch-model";
import { spendSearchBudget } from "./search-budget";

/**
 * The most context lines that may be missing from the file or extra in it. One covers a line a
 * model dropped or invented; two already let a stale hunk slide onto a look-alike a few lines
 * away (a changed line counts as one missing plus one extra).
 */
export const maximumGaps = 1;

/** A placement of a hunk's old side where some context lines are missing or extra. */
export interface GappedPlacement {
  start: number;
  end: number;
  /** File index of each old-side line, or -1 for a context line the file no longer has. */
  mapping: number[];
  gaps: number;
}

interface OldLine {
  key: string;
  isDelete: boolean;
  /** A neighbour of a pure insertion: it alone says where the added lines go, so it must match. */
  mustMatch: boolean;
}

interface HunkShape {
  lines: OldLine[];
  /** At boundary b (between old lines b-1 and b) the file may not hold extra lines. */
  noExtrasAt: boolean[];
  /** Boundaries where added lines are inserted, for the edit signature. */
  insertionBoundaries: number[];
}

const substance = /[\p{L}\p{N}]/u;
/** How alike a context line must be to the file's to stand in for it ("a word off"). */
const substitutionSimilarity = 0.5;

function describeHunk(hunk: Hunk): HunkShape {
  const lines: OldLine[] = [];
  const addsBefore: boolean[] = [];
  let pendingAdd = false;
  for (const line of hunk.lines) {
    if (line.kind === "add") {
      pendingAdd = true;
      continue;
    }
    addsBefore.push(pendingAdd);
    pendingAdd = false;
    lines.push({
      key: normalizeLine(line.text, "unicode-lookalike"),
      isDelete: line.kind === "delete",
      mustMatch: false,
    });
  }
  addsBefore.push(pendingAdd);
  const noExtrasAt: boolean[] = [];
  const insertionBoundaries: number[] = [];
  for (let boundary = 0; boundary <= lines.length; boundary += 1) {
    const before = lines[boundary - 1];
    const after = lines[boundary];
    const pureInsertion = addsBefore[boundary] && !before?.isDelete && !after?.isDelete;
    if (addsBefore[boundary]) insertionBoundaries.push(boundary);
    if (pureInsertion) {
      if (before) before.mustMatch = true;
      if (after) after.mustMatch = true;
    }
    // Extra file lines inside a deletion run or at a pure insertion would make the edit's place unclear.
    noExtrasAt.push(pureInsertion || (before?.isDelete === true && after?.isDelete === true));
  }
  return { lines, noExtrasAt, insertionBoundaries };
}

/** Deleted file lines and insertion positions: two alignments with the same signature edit alike. */
function signature(shape: HunkShape, mapping: readonly number[], start: number): string {
  const deleted = shape.lines.flatMap((line, index) => (line.isDelete ? [mapping[index]] : []));
  const insertions = shape.insertionBoundaries.map((boundary) => {
    for (let index = boundary - 1; index >= 0; index -= 1)
      if (mapping[index] !== -1) return mapping[index] + 1;
    return start;
  });
  return `${deleted.join(",")}|${insertions.join(",")}`;
}

/**
 * What a placement would do to the file — which lines it deletes and where it inserts — so two
 * alignments of the same edit (one skipping a context line, one not) count as one place.
 */
export function editSignature(hunk: Hunk, mapping: readonly number[], start: number): string {
  return signature(describeHunk(hunk), mapping, start);
}

function hasEnoughEvidence(shape: HunkShape, mapping: number[]): boolean {
  let matched = 0;
  let substantial = 0;
  mapping.forEach((fileIndex, index) => {
    if (fileIndex === -1) return;
    matched += 1;
    if (substance.test(shape.lines[index].key)) substantial += 1;
  });
  return matched >= 3 && substantial >= 2;
}

interface RequiredLine {
  /** Its index among the hunk's old lines. */
  oldIndex: number;
  /** Where the file holds it. */
  positions: readonly number[];
}

/**
 * Of the lines every placement must match (removed lines, and the neighbours of a pure
 * insertion), the one the file holds least often: a placement can only start near one of its
 * positions, so a hunk of common context around a rare removed line is placed without walking
 * every occurrence of the common line. Null when the hunk has no such line.
 */
function rarestRequiredLine(index: LineIndex, shape: HunkShape): RequiredLine | null {
  let rarest: RequiredLine | null = null;
  shape.lines.forEach((line, oldIndex) => {
    if (!line.isDelete && !line.mustMatch) return;
    const positions = index.positions("unicode-lookalike", line.key);
    if (!rarest || positions.length < rarest.positions.length) rarest = { oldIndex, positions };
  });
  return rarest;
}

/**
 * Ascending file lines at or after `from` where the old line `skipped` could match if the
 * required line matches at one of its positions: at most {@link maximumGaps} lines either side of
 * where it would sit. Lazy, so a search that stops early never walks every position.
 */
function* startsNear(
  required: RequiredLine,
  skipped: number,
  keys: readonly string[],
  firstKey: string,
  from: number,
): Generator<number> {
  const distance = required.oldIndex - skipped;
  const { positions } = required;
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle] - distance + maximumGaps < from) low = middle + 1;
    else high = middle;
  }
  // Neighbouring positions' ranges overlap; anything at or below the last start was yielded.
  let lastYielded = from - 1;
  for (let candidate = low; candidate < positions.length; candidate += 1) {
    for (let shift = -maximumGaps; shift <= maximumGaps; shift += 1) {
      const start = positions[candidate] - distance + shift;
      if (start <= lastYielded || start >= keys.length) continue;
      lastYielded = start;
      spendSearchBudget(1);
      if (keys[start] === firstKey) yield start;
    }
  }
}

/**
 * The last tolerance: finds where a hunk fits if {@link maximumGaps} context line is
 * missing from the file or extra in it — what happens when a model drops or invents a context
 * line. Removed lines must all match, each run of them contiguously; the lines around a pure
 * insertion must match and touch; at least three lines (two with letters or digits) must match.
 * Returns every distinct placement within `bounds` (up to `limit`), so the caller can refuse
 * when there are two.
 */
export interface SearchBounds {
  /** The first file line a window may start at. */
  from: number;
  /** One past the last file line a window may cover. */
  until: number;
  /** The last file line a window may start at. */
  lastStart?: number;
}

export function findGappedPlacements(
  index: LineIndex,
  hunk: Hunk,
  bounds: SearchBounds,
  limit: number,
): GappedPlacement[] {
  const { from, until, lastStart = Number.POSITIVE_INFINITY } = bounds;
  const shape = describeHunk(hunk);
  const count = shape.lines.length;
  if (count < 3) return [];
  const keys = index.keys("unicode-lookalike");
  const hasDelete = shape.lines.some((line) => line.isDelete);
  const found = new Map<string, GappedPlacement>();
  const mapping = new Array<number>(count).fill(-1);

  const search = (oldIndex: number, fileIndex: number, gaps: number, firstMatch: number): void => {
    if (found.size > limit) return;
    spendSearchBudget(1);
    if (oldIndex === count) {
      if (firstMatch === -1 || !hasEnoughEvidence(shape, mapping)) return;
      let end = firstMatch;
      for (const position of mapping) if (position !== -1) end = position + 1;
      if (end > until) return;
      const key = signature(shape, mapping, firstMatch);
      const previous = found.get(key);
      if (!previous || previous.gaps > gaps)
        found.set(key, { start: firstMatch, end, mapping: [...mapping], gaps });
      return;
    }
    const line = shape.lines[oldIndex];
    if (fileIndex < keys.length && keys[fileIndex] === line.key) {
      mapping[oldIndex] = fileIndex;
      search(oldIndex + 1, fileIndex + 1, gaps, firstMatch === -1 ? fileIndex : firstMatch);
      mapping[oldIndex] = -1;
    }
    if (gaps === maximumGaps) return;
    if (!line.isDelete && !line.mustMatch) search(oldIndex + 1, fileIndex, gaps + 1, firstMatch);
    // An extra file line can only sit between two old lines the file still has.
    const previousMatched = oldIndex > 0 && mapping[oldIndex - 1] !== -1;
    if (previousMatched && !shape.noExtrasAt[oldIndex] && fileIndex < keys.length) {
      search(oldIndex, fileIndex + 1, gaps + 1, firstMatch);
    }
    // One context line a word off, between lines that match, in a hunk that removes lines (all
    // of which must match exactly): the file's line stays, as context lines always do.
    if (
      previousMatched &&
      hasDelete &&
      !line.isDelete &&
      !line.mustMatch &&
      oldIndex < count - 1 &&
      fileIndex < keys.length &&
      lineSimilarity(line.key, keys[fileIndex]) >= substitutionSimilarity
    ) {
      mapping[oldIndex] = fileIndex;
      search(oldIndex + 1, fileIndex + 1, gaps + 1, firstMatch);
      mapping[oldIndex] = -1;
    }
  };

  const required = rarestRequiredLine(index, shape);
  for (let skipped = 0; skipped <= maximumGaps && skipped < count; skipped += 1) {
    const first = shape.lines[skipped];
    // The old lines before the first match are missing from the file: only plain context may be.
    if (shape.lines.slice(0, skipped).some((line) => line.isDelete || line.mustMatch)) break;
    const starts = required
      ? startsNear(required, skipped, keys, first.key, from)
      : index.positions("unicode-lookalike", first.key);
    for (const position of starts) {
      spendSearchBudget(1);
      if (position < from) continue;
      if (position > lastStart) break;
      // The window starts with its first matching old line.
      mapping[skipped] = position;
      search(skipped + 1, position + 1, skipped, position);
      mapping[skipped] = -1;
      if (found.size > limit) break;
    }
  }
  return [...found.values()].sort((left, right) => left.start - right.start).slice(0, limit);
}
