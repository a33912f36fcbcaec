import { lazyPlaceholderProblem } from "./elision-marker";
import { LineIndex } from "./line-index";
import { ignoresIndentation } from "./line-tolerance";
import { type HunkPlacement, type LocateOutcome, locateHunk } from "./locate-hunk";
import { type Hunk, newSideLines } from "./patch-model";
import type { MatchTolerance } from "./patch-result";
import { inferReindent, type Reindent } from "./reindent-lines";
import { grantSearchBudget, unitsPerLine } from "./search-budget";
import { type LineEnding, splitText } from "./text-lines";

/** A hunk that could not be placed, with what the failure report needs. */
export interface HunkFailure {
  /** 0-based index of the hunk in its file section. */
  hunkIndex: number;
  code:
    | "PATCH_CONTEXT_NOT_FOUND"
    | "PATCH_AMBIGUOUS_MATCH"
    | "PATCH_LAZY_PLACEHOLDER"
    | "PATCH_ALREADY_APPLIED";
  message: string;
  candidates: number[];
  searchFrom: number;
}

export interface PlacedHunk {
  hunkIndex: number;
  /** The window the hunk replaced in the original file (0-based, end exclusive). */
  start: number;
  end: number;
  /** Where the hunk's result sits in the patched file (0-based) and how many lines it spans. */
  resultStart: number;
  resultLength: number;
  tolerance: MatchTolerance;
}

export type FileEditOutcome =
  | { ok: true; text: string; additions: number; deletions: number; placed: PlacedHunk[] }
  | { ok: false; failures: HunkFailure[]; index: LineIndex };

export interface FileEditOptions {
  /** The patch states its own line endings (a diff of a CRLF file): added lines keep them. */
  carriesLineEndings: boolean;
}

interface Output {
  lines: string[];
  endings: LineEnding[];
}

function reindentFor(
  hunk: Hunk,
  placement: HunkPlacement,
  fileLines: readonly string[],
): Reindent | null {
  if (!ignoresIndentation(placement.comparison)) return null;
  const pairs: [string, string][] = [];
  let oldIndex = 0;
  for (const line of hunk.lines) {
    if (line.kind === "add") continue;
    const fileIndex = placement.mapping[oldIndex];
    if (fileIndex !== -1) pairs.push([line.text, fileLines[fileIndex]]);
    oldIndex += 1;
  }
  const added = hunk.lines.filter((line) => line.kind === "add").map((line) => line.text);
  return inferReindent(pairs, added, () =>
    fileLines.map((line) => /^[ \t]*/.exec(line)?.[0] ?? ""),
  );
}

/**
 * Writes one placed hunk: file lines the hunk does not mention stay; context lines keep the
 * file's own text (so whitespace the match forgave is preserved); removed lines go; added lines
 * are written where the patch puts them.
 */
function writeWindow(
  hunk: Hunk,
  placement: HunkPlacement,
  file: { lines: readonly string[]; endings: readonly LineEnding[] },
  addedEnding: (carriageReturn: boolean) => LineEnding,
  /** File lines before this were written by the previous hunk (shared unchanged lines). */
  from: number,
): Output & { additions: number; deletions: number } {
  const reindent = reindentFor(hunk, placement, file.lines);
  const output: Output = { lines: [], endings: [] };
  let cursor = Math.max(placement.start, from);
  let oldIndex = 0;
  let additions = 0;
  let deletions = 0;
  const copyUpTo = (fileIndex: number) => {
    for (; cursor < fileIndex; cursor += 1) {
      output.lines.push(file.lines[cursor]);
      output.endings.push(file.endings[cursor]);
    }
  };
  for (const line of hunk.lines) {
    if (line.kind === "add") {
      output.lines.push(reindent ? reindent(line.text) : line.text);
      output.endings.push(addedEnding(line.carriageReturn));
      additions += 1;
      continue;
    }
    const fileIndex = placement.mapping[oldIndex];
    oldIndex += 1;
    if (fileIndex === -1 || fileIndex < from) continue;
    copyUpTo(fileIndex);
    if (line.kind === "context") {
      output.lines.push(file.lines[fileIndex]);
      output.endings.push(file.endings[fileIndex]);
    } else {
      deletions += 1;
    }
    cursor = fileIndex + 1;
  }
  copyUpTo(placement.end);
  return { ...output, additions, deletions };
}

/**
 * Applies a file section's hunks to a text: each hunk is placed after the previous one (see
 * {@link locateHunk}); if any cannot be placed, all failures are returned and nothing is written.
 * CRLF files stay CRLF. The final newline follows the patch where a hunk reaches the end of the
 * file (`\ No newline at end of file` removes it, its absence keeps or adds it) and is left alone
 * elsewhere. A byte-order mark survives.
 */
/**
 * Where the file holds exactly a hunk's new side (its context and added lines), once: the change
 * was already made. Only for hunks that add something and leave at least two lines with text, so
 * a lone context line surviving a deletion proves nothing. Null otherwise.
 */
function alreadyAppliedAt(index: LineIndex, hunk: Hunk): number | null {
  const adds = hunk.lines.some((line) => line.kind === "add" && line.text.trim() !== "");
  const wanted = newSideLines(hunk).map((line) => line.text);
  if (!adds || wanted.filter((line) => line.trim() !== "").length < 2) return null;
  const starts = index.findBlock("exact", wanted, 0, 2);
  return starts.length === 1 ? starts[0] : null;
}

/**
 * Where a placed hunk's result (its new side) already stands: right at its place (a pure
 * insertion made before: applying it again would insert its lines twice), or near where its
 * header points while its old lines matched elsewhere (a look-alike block elsewhere still holds
 * the old lines). Null when the result is not there.
 */
function resultAlreadyThere(index: LineIndex, hunk: Hunk, placement: HunkPlacement): number | null {
  const adds = hunk.lines.some((line) => line.kind === "add" && line.text.trim() !== "");
  const insertsOnly = !hunk.lines.some((line) => line.kind === "delete");
  if (!adds && insertsOnly) return null;
  const newSide = newSideLines(hunk).map((line) => line.text);
  if (newSide.filter((line) => line.trim() !== "").length < 2) return null;
  if (insertsOnly) {
    // The added lines may sit before, between or after the context: the result starts at most
    // that many lines before the context's place.
    const added = hunk.lines.filter((line) => line.kind === "add").length;
    for (let start = Math.max(0, placement.start - added); start <= placement.start; start += 1)
      if (index.matchesAt("exact", newSide, start)) return start;
  }
  const stated = hunk.statedIndex;
  if (stated === null || Math.abs(stated - placement.start) <= statedNearby) return null;
  for (let start = stated - statedNearby; start <= stated + statedNearby; start += 1) {
    if (index.matchesAt("exact", newSide, start)) return start;
  }
  return null;
}

/** How far from its header's line a hunk's result may stand and still be "where it points". */
const statedNearby = 3;

const hunkText = (hunk: Hunk) => hunk.lines.map((line) => `${line.kind}:${line.text}`).join("\n");

/**
 * Second chance for hunks not found after their predecessor: models list hunks out of file order
 * and repeat one. A hunk is searched in the whole file; the same hunk found where an identical one
 * was placed is a repeat and is applied once; a place that overlaps another hunk's is refused.
 */
function placeOutOfOrderHunks(
  index: LineIndex,
  hunks: readonly Hunk[],
  slots: { placement: HunkPlacement | null; failure: HunkFailure | null }[],
  duplicates: Set<number>,
): void {
  for (const [hunkIndex, slot] of slots.entries()) {
    if (slot.failure?.code !== "PATCH_CONTEXT_NOT_FOUND") continue;
    const hunk = hunks[hunkIndex];
    const outcome = locateHunk(
      index,
      hunk,
      { from: 0, until: index.length },
      { lines: 0, agreed: false },
    );
    if (!outcome.ok) continue;
    const { start, end } = outcome.placement;
    const twin = slots.findIndex(
      (other, otherIndex) =>
        otherIndex !== hunkIndex &&
        other.placement?.start === start &&
        other.placement.end === end &&
        hunkText(hunks[otherIndex]) === hunkText(hunk),
    );
    if (twin !== -1) {
      slots[hunkIndex] = { placement: outcome.placement, failure: null };
      duplicates.add(hunkIndex);
      continue;
    }
    const overlapping = slots.findIndex(
      (other, otherIndex) =>
        other.placement !== null &&
        other.placement.start < Math.max(end, start + 1) &&
        Math.max(other.placement.end, other.placement.start + 1) > start &&
        !sharesOnlyUnchangedLines(
          { hunk: hunks[otherIndex], placement: other.placement },
          { hunk, placement: outcome.placement },
        ),
    );
    if (overlapping !== -1) {
      slot.failure = {
        ...slot.failure,
        code: "PATCH_AMBIGUOUS_MATCH",
        message: `the hunk matches line ${start + 1}, which hunk ${overlapping + 1} of this file also changes: send one hunk per place, against the file as it is now`,
        candidates: [start],
      };
      continue;
    }
    slots[hunkIndex] = { placement: outcome.placement, failure: null };
  }
}

type PlacedCandidate = { hunk: Hunk; placement: HunkPlacement };

/**
 * Models often write each hunk with its own context against the original file, so a hunk's
 * leading context can be the previous hunk's trailing context. Such hunks overlap only in lines
 * both keep unchanged, in the same file lines: they compose, the shared lines written once. Any
 * other overlap (a shared line one of them changes, an insertion inside the shared span, one hunk
 * inside the other, or a context line the file no longer has) stays refused.
 */
export function sharesOnlyUnchangedLines(one: PlacedCandidate, two: PlacedCandidate): boolean {
  const [first, second] = one.placement.start <= two.placement.start ? [one, two] : [two, one];
  const sharedFrom = second.placement.start;
  const sharedUntil = first.placement.end;
  if (sharedUntil <= sharedFrom || second.placement.end <= sharedUntil) return false;
  // From the first hunk's first line in the shared span to its end: unchanged lines only.
  let oldIndex = 0;
  let inShared = false;
  for (const line of first.hunk.lines) {
    if (line.kind === "add") {
      if (inShared) return false;
      continue;
    }
    const fileIndex = first.placement.mapping[oldIndex];
    oldIndex += 1;
    if (fileIndex === -1) return false;
    if (fileIndex >= sharedFrom) inShared = true;
    if (inShared && line.kind !== "context") return false;
  }
  // The second hunk's lines up to the end of the shared span: unchanged lines only.
  oldIndex = 0;
  for (const line of second.hunk.lines) {
    if (line.kind === "add") return false;
    const fileIndex = second.placement.mapping[oldIndex];
    oldIndex += 1;
    if (fileIndex === -1 || line.kind !== "context") return false;
    if (fileIndex >= sharedUntil - 1) return fileIndex === sharedUntil - 1;
  }
  return false;
}

export function applyHunks(
  text: string,
  hunks: readonly Hunk[],
  options: FileEditOptions,
): FileEditOutcome {
  const file = splitText(text);
  const index = new LineIndex(file.lines);
  grantSearchBudget(unitsPerLine * file.lines.length);
  const lineCount = file.lines.length;
  const slots: { placement: HunkPlacement | null; failure: HunkFailure | null }[] = hunks.map(
    () => ({ placement: null, failure: null }),
  );
  const failureOf = (
    hunkIndex: number,
    outcome: Extract<LocateOutcome, { ok: false }>,
  ): HunkFailure => ({
    hunkIndex,
    code: outcome.code,
    message: outcome.message,
    candidates: outcome.candidates,
    searchFrom: outcome.searchFrom,
  });
  const offsetOf = (hunkIndex: number) => {
    const placement = slots[hunkIndex].placement;
    const stated = hunks[hunkIndex].statedIndex;
    return placement && stated !== null ? placement.start - stated : null;
  };

  let cursor = 0;
  let offset = 0;
  const pending: number[] = [];
  // A hunk that swaps code for a "... existing code ..." placeholder is refused unplaced.
  hunks.forEach((hunk, hunkIndex) => {
    const lazy = lazyPlaceholderProblem(hunk);
    if (lazy) {
      slots[hunkIndex].failure = {
        hunkIndex,
        code: "PATCH_LAZY_PLACEHOLDER",
        message: lazy,
        candidates: [],
        searchFrom: 0,
      };
    }
  });
  hunks.forEach((hunk, hunkIndex) => {
    if (slots[hunkIndex].failure) return;
    const measured = { lines: offset, agreed: true };
    const outcome = locateHunk(index, hunk, { from: cursor, until: lineCount }, measured);
    if (outcome.ok) {
      slots[hunkIndex].placement = outcome.placement;
      cursor = outcome.placement.end;
      offset = offsetOf(hunkIndex) ?? offset;
      return;
    }
    slots[hunkIndex].failure = failureOf(hunkIndex, outcome);
    if (outcome.code === "PATCH_AMBIGUOUS_MATCH" && outcome.candidates.length > 0)
      pending.push(hunkIndex);
  });
  // Hunks apply in order, so a later hunk that was placed bounds an earlier ambiguous one.
  for (const hunkIndex of pending.reverse()) {
    const before = slots.slice(0, hunkIndex).findLastIndex((slot) => slot.placement !== null);
    const after = slots.findIndex(
      (slot, position) => position > hunkIndex && slot.placement !== null,
    );
    if (after === -1) continue;
    const from = before === -1 ? 0 : (slots[before].placement as HunkPlacement).end;
    const until = (slots[after].placement as HunkPlacement).start;
    // The header is trusted only where the hunks around agree on how far the file moved.
    const previous = before === -1 ? null : offsetOf(before);
    const next = offsetOf(after);
    const measured = {
      lines: previous ?? next ?? 0,
      agreed: previous === null || next === null || previous === next,
    };
    const outcome = locateHunk(index, hunks[hunkIndex], { from, until }, measured);
    if (outcome.ok) slots[hunkIndex] = { placement: outcome.placement, failure: null };
    else slots[hunkIndex].failure = failureOf(hunkIndex, outcome);
  }
  const duplicates = new Set<number>();
  placeOutOfOrderHunks(index, hunks, slots, duplicates);
  for (const [hunkIndex, slot] of slots.entries()) {
    if (!slot.placement) continue;
    const applied = resultAlreadyThere(index, hunks[hunkIndex], slot.placement);
    if (applied === null) continue;
    slots[hunkIndex] = {
      placement: null,
      failure: {
        hunkIndex,
        code: "PATCH_ALREADY_APPLIED",
        message: `the file already holds this hunk's result at line ${applied + 1}${applied === slot.placement.start ? "" : `, where its header points (its old lines also match at line ${slot.placement.start + 1})`}: the change was already made, so leave it out`,
        candidates: [applied],
        searchFrom: 0,
      },
    };
  }
  for (const [hunkIndex, slot] of slots.entries()) {
    if (slot.failure?.code !== "PATCH_CONTEXT_NOT_FOUND") continue;
    const applied = alreadyAppliedAt(index, hunks[hunkIndex]);
    if (applied !== null) {
      slot.failure = {
        ...slot.failure,
        code: "PATCH_ALREADY_APPLIED",
        message: `the file already holds this hunk's result at line ${applied + 1} and not its removed lines: the change was already made, so leave it out`,
        candidates: [applied],
      };
    }
  }
  const failures = slots.flatMap((slot) => (slot.failure ? [slot.failure] : []));
  if (failures.length > 0) return { ok: false, failures, index };
  // Hunks may have been listed out of file order; they are written in file order, duplicates once.
  const order = slots
    .map((slot, hunkIndex) => ({ placement: slot.placement as HunkPlacement, hunkIndex }))
    .filter((entry) => !duplicates.has(entry.hunkIndex))
    .sort((left, right) => left.placement.start - right.placement.start);
  const placements = order.map((entry) => entry.placement);
  const placed: PlacedHunk[] = order.map(({ placement, hunkIndex }) => ({
    hunkIndex,
    start: placement.start,
    end: placement.end,
    resultStart: 0,
    resultLength: 0,
    tolerance: placement.tolerance,
  }));

  const fileEnding = file.dominantEnding;
  const addedEnding = (carriageReturn: boolean): LineEnding =>
    options.carriesLineEndings ? (carriageReturn ? "\r\n" : "\n") : fileEnding;
  const textOffset = (line: number) => (line < lineCount ? file.starts[line] : text.length);
  // Unchanged spans are copied as slices of the original text: a large file stays cheap.
  const pieces: string[] = file.byteOrderMark ? ["\uFEFF"] : [];
  let endsWithoutNewline = false;
  let copied = 0;
  let written = 0;
  let additions = 0;
  let deletions = 0;
  const copySpan = (end: number) => {
    if (end <= copied) return;
    if (endsWithoutNewline) pieces.push(fileEnding);
    pieces.push(text.slice(textOffset(copied), textOffset(end)));
    written += end - copied;
    endsWithoutNewline = end === lineCount && file.endings[lineCount - 1] === "";
    copied = end;
  };
  for (let position = 0; position < placements.length; position += 1) {
    const placement = placements[position];
    const hunk = hunks[placed[position].hunkIndex];
    copySpan(placement.start);
    const window = writeWindow(hunk, placement, file, addedEnding, copied);
    placed[position].start = Math.max(placement.start, copied);
    additions += window.additions;
    deletions += window.deletions;
    placed[position].resultStart = written;
    placed[position].resultLength = window.lines.length;
    copied = placement.end;
    const last = window.lines.length - 1;
    if (last < 0) continue;
    // Only a file's last line may lack an ending; lines that stopped being last get the file's.
    for (let line = 0; line < last; line += 1)
      if (window.endings[line] === "") window.endings[line] = fileEnding;
    // A marker on an unchanged last line describes the file, it does not change it.
    const endsOnContext =
      hunk.oldEndsWithoutNewline &&
      hunk.newEndsWithoutNewline &&
      hunk.lines.at(-1)?.kind === "context" &&
      placement.mapping.at(-1) === lineCount - 1;
    if (placement.end === lineCount && !endsOnContext) {
      // Where a hunk reaches the end, the final newline is what the patch says.
      if (hunk.newEndsWithoutNewline) window.endings[last] = "";
      else if (window.endings[last] === "") window.endings[last] = fileEnding;
    }
    if (endsWithoutNewline) pieces.push(fileEnding);
    for (let line = 0; line <= last; line += 1)
      pieces.push(window.lines[line], window.endings[line]);
    written += window.lines.length;
    endsWithoutNewline = window.endings[last] === "";
  }
  copySpan(lineCount);
  return { ok: true, text: pieces.join(""), additions, deletions, placed };
}
