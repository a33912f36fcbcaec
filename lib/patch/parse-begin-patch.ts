import type { PatchTextLine } from "./extract-patch-lines";
import {
  emptyHunk,
  type FilePatch,
  type Hunk,
  type HunkLine,
  type ParseOutcome,
} from "./patch-model";

const fileHeaderPattern = /^\*\*\* (Add|Delete|Update) File:\s*(.*)$/;
const moveToPattern = /^\*\*\* Move to:\s*(.*)$/;
const unifiedNumbersPattern = /^-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s*(?:@@.*)?$/;
const expectedFileHeader =
  "*** Add File: <path>, *** Update File: <path> or *** Delete File: <path>";

/** True for the `*** Begin Patch` marker, padded or not. */
export function isBeginPatchMarker(text: string): boolean {
  return text.trim() === "*** Begin Patch";
}

function isEndPatchMarker(text: string): boolean {
  return text.trim() === "*** End Patch";
}

type Failure = Extract<ParseOutcome, { ok: false }>;

function fail(line: PatchTextLine | undefined, expected: string, fallbackLine = 0): Failure {
  return {
    ok: false,
    failure: {
      line: line?.number ?? fallbackLine,
      expected,
      found: line ? line.text : "the end of the patch",
    },
  };
}

interface OpenHunk {
  hunk: Hunk;
  /** Which lines were blank without a prefix: separators at a hunk's edges, context inside it. */
  unprefixedBlank: boolean[];
}

/** Drops unprefixed blank lines at a hunk's edges: models use them to space sections out. */
function closeHunk(open: OpenHunk): Hunk {
  const { hunk, unprefixedBlank } = open;
  let first = 0;
  let last = hunk.lines.length;
  while (first < last && unprefixedBlank[first]) first += 1;
  while (last > first && unprefixedBlank[last - 1]) last -= 1;
  hunk.lines = hunk.lines.slice(first, last);
  return hunk;
}

/** Reads the text after `@@`: an anchor line, nothing, or a unified-style header kept as a hint. */
function readHunkHeader(open: OpenHunk, text: string): void {
  let rest = text.trim().slice(2).trim();
  const numbers = unifiedNumbersPattern.exec(rest);
  if (numbers) {
    const oldCount = numbers[2] === undefined ? 1 : Number(numbers[2]);
    open.hunk.statedIndex =
      oldCount === 0 ? Number(numbers[1]) : Math.max(0, Number(numbers[1]) - 1);
    return;
  }
  if (rest.endsWith("@@")) rest = rest.slice(0, -2).trim();
  if (rest !== "") open.hunk.anchors.push(rest);
}

interface Section {
  file: FilePatch;
  header: PatchTextLine;
  open: OpenHunk | null;
  /** Blank lines seen in an Add File body, kept only if more content follows. */
  pendingBlank: HunkLine[];
}

/**
 * Parses the `*** Begin Patch` format: Add/Delete/Update File sections, `*** Move to:`, `@@` hunks
 * with optional anchor lines (several in a row narrow the search step by step), and
 * `*** End of File`. Marker lines may be padded with spaces. Text before `*** Begin Patch` and
 * after the last `*** End Patch` is ignored; several Begin/End blocks are read as one patch; a
 * missing `*** End Patch` is read as the end of the text.
 */
export function parseBeginPatch(lines: readonly PatchTextLine[]): ParseOutcome {
  const begin = lines.findIndex((line) => isBeginPatchMarker(line.text));
  let end = -1;
  for (let index = lines.length - 1; index > begin; index -= 1) {
    if (isEndPatchMarker(lines[index].text)) {
      end = index;
      break;
    }
  }
  if (begin === -1) return fail(lines[0], "*** Begin Patch", 1);
  // Models drop the closing marker; the patch arrived whole (a tool argument), so its text ends it.
  if (end === -1) end = lines.length;

  const files: FilePatch[] = [];
  let section: Section | null = null;
  let betweenBlocks = false;

  const finishSection = (): Failure | null => {
    if (!section) return null;
    const current: Section = section;
    section = null;
    const { file } = current;
    if (current.open) {
      const hunk = closeHunk(current.open);
      // An Add File with no lines creates an empty file.
      if (hunk.lines.length > 0) file.hunks.push(hunk);
      else if (file.kind !== "add")
        return fail(current.header, "at least one ' ', '-' or '+' line in each @@ hunk");
    }
    if (file.kind === "update" && file.hunks.length === 0 && file.targetPath === null) {
      return fail(
        current.header,
        `a hunk ('@@', or lines starting with ' ', '-', '+') after "${current.header.text.trim()}"`,
      );
    }
    files.push(file);
    return null;
  };

  for (let index = begin + 1; index < end; index += 1) {
    const line = lines[index];
    const text = line.text;
    const trimmed = text.trim();

    if (betweenBlocks) {
      if (isBeginPatchMarker(text)) betweenBlocks = false;
      continue;
    }
    if (isEndPatchMarker(text)) {
      const failed = finishSection();
      if (failed) return failed;
      betweenBlocks = true;
      continue;
    }

    const fileHeader = fileHeaderPattern.exec(trimmed);
    if (fileHeader) {
      const failed = finishSection();
      if (failed) return failed;
      const path = fileHeader[2].trim();
      if (path === "") return fail(line, `a path after "*** ${fileHeader[1]} File:"`);
      const kind =
        fileHeader[1] === "Add" ? "add" : fileHeader[1] === "Delete" ? "delete" : "update";
      const file: FilePatch = {
        kind,
        path,
        targetPath: null,
        alternatePath: null,
        hunks: [],
        binary: false,
        patchLine: line.number,
      };
      section = { file, header: line, open: null, pendingBlank: [] };
      if (kind === "add") {
        section.open = { hunk: { ...emptyHunk(line.number), statedIndex: 0 }, unprefixedBlank: [] };
      }
      continue;
    }

    const current = section as Section | null;
    const move = moveToPattern.exec(trimmed);
    if (move) {
      if (
        current?.file.kind !== "update" ||
        current.open ||
        current.file.hunks.length > 0 ||
        current.file.targetPath
      ) {
        return fail(line, "*** Move to: <path> directly after *** Update File: <path>");
      }
      const target = move[1].trim();
      if (target === "") return fail(line, 'a path after "*** Move to:"');
      current.file.kind = "rename";
      current.file.targetPath = target;
      continue;
    }

    if (trimmed === "*** End of File") {
      if (current?.file.kind === "add") continue; // harmless: an added file's end is its last line
      if (!current?.open || current.open.hunk.lines.length === 0) {
        return fail(line, "*** End of File only after the lines of an @@ hunk");
      }
      current.open.hunk.endOfFile = true;
      current.file.hunks.push(closeHunk(current.open));
      current.open = null;
      continue;
    }

    if (!current) {
      if (trimmed === "") continue;
      return fail(line, expectedFileHeader);
    }
    // An unknown `***` line at column 0 is a header the patch got wrong, never content.
    if (text.startsWith("***"))
      return fail(line, `${expectedFileHeader}, *** Move to:, *** End of File or *** End Patch`);

    if (current.file.kind === "delete") {
      if (trimmed === "") continue;
      return fail(line, `the next ${expectedFileHeader} after *** Delete File`);
    }

    if (current.file.kind === "add") {
      const open = current.open as OpenHunk;
      if (text === "") {
        current.pendingBlank.push({ kind: "add", text: "", carriageReturn: line.carriageReturn });
        continue;
      }
      if (text[0] !== "+")
        return fail(line, "a line starting with '+' (the content of *** Add File)");
      open.hunk.lines.push(...current.pendingBlank, {
        kind: "add",
        text: text.slice(1),
        carriageReturn: line.carriageReturn,
      });
      open.unprefixedBlank.push(...current.pendingBlank.map(() => false), false);
      current.pendingBlank = [];
      continue;
    }

    // Update (or rename) section.
    if (text.startsWith("@@")) {
      if (current.open && current.open.hunk.lines.length > 0) {
        current.file.hunks.push(closeHunk(current.open));
        current.open = null;
      }
      current.open ??= { hunk: emptyHunk(line.number), unprefixedBlank: [] };
      readHunkHeader(current.open, text);
      continue;
    }
    current.open ??= { hunk: emptyHunk(line.number), unprefixedBlank: [] };
    const open: OpenHunk = current.open;
    const first = text[0];
    if (first === "\\") {
      continue; // `\ No newline at end of file` has no meaning in this format
    }
    const kind = first === "+" ? "add" : first === "-" ? "delete" : "context";
    // A line without any prefix is read as context: it must still match the file exactly.
    const body = first === "+" || first === "-" || first === " " ? text.slice(1) : text;
    open.hunk.lines.push({ kind, text: body, carriageReturn: line.carriageReturn });
    open.unprefixedBlank.push(text === "");
  }
  const failed = finishSection();
  if (failed) return failed;
  const carriesLineEndings = lines.slice(begin, end).some((line) => line.carriageReturn);
  return { ok: true, patch: { format: "begin-patch", files, carriesLineEndings, warnings: [] } };
}
