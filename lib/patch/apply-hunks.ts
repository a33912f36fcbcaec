import { LineIndex } from "./line-index";
import { ignoresIndentation } from "./line-tolerance";
import { type HunkPlacement, locateHunk } from "./locate-hunk";
import type { Hunk } from "./patch-model";
import type { MatchTolerance } from "./patch-result";
import { inferReindent, type Reindent } from "./reindent-lines";
import { dominantLineEnding, joinText, type LineEnding, splitText } from "./text-lines";

/** A hunk that could not be placed, with what the failure report needs. */
export interface HunkFailure {
  /** 0-based index of the hunk in its file section. */
  hunkIndex: number;
  code: "PATCH_CONTEXT_NOT_FOUND" | "PATCH_AMBIGUOUS_MATCH";
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
 * are written where the patch puts them. Returns how many lines it wrote.
 */
function writeWindow(
  output: Output,
  hunk: Hunk,
  placement: HunkPlacement,
  file: { lines: readonly string[]; endings: readonly LineEnding[] },
  addedEnding: (carriageReturn: boolean) => LineEnding,
): { written: number; additions: number; deletions: number } {
  const reindent = reindentFor(hunk, placement, file.lines);
  const before = output.lines.length;
  let cursor = placement.start;
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
    if (fileIndex === -1) continue;
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
  return { written: output.lines.length - before, additions, deletions };
}

/**
 * Applies a file section's hunks to a text: each hunk is placed after the previous one (see
 * {@link locateHunk}); if any cannot be placed, all failures are returned and nothing is written.
 * CRLF files stay CRLF. The final newline follows the patch where a hunk reaches the end of the
 * file (`\ No newline at end of file` removes it, its absence keeps or adds it) and is left alone
 * elsewhere. A byte-order mark survives.
 */
export function applyHunks(
  text: string,
  hunks: readonly Hunk[],
  options: FileEditOptions,
): FileEditOutcome {
  const file = splitText(text);
  const index = new LineIndex(file.lines);
  const placements: HunkPlacement[] = [];
  const placed: PlacedHunk[] = [];
  const failures: HunkFailure[] = [];
  let cursor = 0;
  let offset = 0;
  hunks.forEach((hunk, hunkIndex) => {
    const outcome = locateHunk(index, hunk, cursor, offset);
    if (!outcome.ok) {
      failures.push({
        hunkIndex,
        code: outcome.code,
        message: outcome.message,
        candidates: outcome.candidates,
        searchFrom: outcome.searchFrom,
      });
      return;
    }
    const { placement } = outcome;
    placements.push(placement);
    placed.push({
      hunkIndex,
      start: placement.start,
      end: placement.end,
      resultStart: 0,
      resultLength: 0,
      tolerance: placement.tolerance,
    });
    cursor = placement.end;
    if (hunk.statedIndex !== null) offset = placement.start - hunk.statedIndex;
  });
  if (failures.length > 0) return { ok: false, failures, index };

  const fileEnding = dominantLineEnding(file.endings);
  const addedEnding = (carriageReturn: boolean): LineEnding =>
    options.carriesLineEndings ? (carriageReturn ? "\r\n" : "\n") : fileEnding;
  const output: Output = { lines: [], endings: [] };
  let finalNewline: boolean | null = null;
  let copied = 0;
  let additions = 0;
  let deletions = 0;
  for (let position = 0; position < placements.length; position += 1) {
    const placement = placements[position];
    for (; copied < placement.start; copied += 1) {
      output.lines.push(file.lines[copied]);
      output.endings.push(file.endings[copied]);
    }
    const hunk = hunks[placed[position].hunkIndex];
    placed[position].resultStart = output.lines.length;
    const written = writeWindow(output, hunk, placement, file, addedEnding);
    placed[position].resultLength = written.written;
    additions += written.additions;
    deletions += written.deletions;
    copied = placement.end;
    if (placement.end === file.lines.length && written.written > 0)
      finalNewline = !hunk.newEndsWithoutNewline;
  }
  for (; copied < file.lines.length; copied += 1) {
    output.lines.push(file.lines[copied]);
    output.endings.push(file.endings[copied]);
  }

  // Only the last line may lack an ending; lines that stopped being last get the file's.
  const last = output.lines.length - 1;
  for (let line = 0; line < last; line += 1) {
    if (output.endings[line] === "") output.endings[line] = fileEnding;
  }
  if (last >= 0 && finalNewline !== null) {
    if (!finalNewline) output.endings[last] = "";
    else if (output.endings[last] === "") output.endings[last] = fileEnding;
  }
  const result = joinText({
    lines: output.lines,
    endings: output.endings,
    byteOrderMark: file.byteOrderMark,
  });
  return { ok: true, text: result, additions, deletions, placed };
}
