import type { PatchTextLine } from "./extract-patch-lines";
import { emptyHunk, type Hunk, type HunkLine } from "./patch-model";

/** Where a unified-diff hunk's body ended, and what it held. */
export interface HunkBody {
  hunk: Hunk;
  /** Index of the first line after the body. */
  end: number;
}

const hunkHeaderPattern = /^@@\s*-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s*(?:@@|$)/;

/** True when lines[index] and the next line are a `--- ` / `+++ ` file header pair. */
export function isFileHeaderPair(lines: readonly PatchTextLine[], index: number): boolean {
  return (
    lines[index]?.text.startsWith("--- ") === true &&
    lines[index + 1]?.text.startsWith("+++ ") === true
  );
}

/** A line that ends a hunk body whatever it looks like: the next hunk or the next file. */
function startsSomethingElse(lines: readonly PatchTextLine[], index: number): boolean {
  const text = lines[index].text;
  return (
    text.startsWith("@@") ||
    text.startsWith("diff --git ") ||
    text.startsWith("Index: ") ||
    isFileHeaderPair(lines, index)
  );
}

function isBodyLine(text: string): boolean {
  return text === "" || text[0] === " " || text[0] === "-" || text[0] === "+" || text[0] === "\\";
}

interface BodyBuilder {
  lines: HunkLine[];
  /** Indexes into `lines` followed by `\ No newline at end of file`. */
  withoutNewline: Set<number>;
}

function addBodyLine(builder: BodyBuilder, line: PatchTextLine): void {
  const text = line.text;
  if (text[0] === "\\") {
    if (builder.lines.length > 0) builder.withoutNewline.add(builder.lines.length - 1);
    return;
  }
  // Editors and models strip the single space of an empty context line.
  const kind = text[0] === "-" ? "delete" : text[0] === "+" ? "add" : "context";
  builder.lines.push({
    kind,
    text: text.slice(text === "" ? 0 : 1),
    carriageReturn: line.carriageReturn,
  });
}

/**
 * Reads exactly the line counts the header states. Fails (null) when the body disagrees or more
 * body lines follow, which means the counts are wrong and the body must be read by shape.
 */
function readCounted(
  lines: readonly PatchTextLine[],
  start: number,
  oldCount: number,
  newCount: number,
): { builder: BodyBuilder; end: number } | null {
  const builder: BodyBuilder = { lines: [], withoutNewline: new Set() };
  let oldSeen = 0;
  let newSeen = 0;
  let index = start;
  while (index < lines.length && (oldSeen < oldCount || newSeen < newCount)) {
    const text = lines[index].text;
    const first = text[0];
    if (text === "" || first === " ") {
      if (oldSeen >= oldCount || newSeen >= newCount) return null;
      oldSeen += 1;
      newSeen += 1;
    } else if (first === "-") {
      if (oldSeen >= oldCount) return null;
      oldSeen += 1;
    } else if (first === "+") {
      if (newSeen >= newCount) return null;
      newSeen += 1;
    } else if (first !== "\\") {
      return null;
    }
    addBodyLine(builder, lines[index]);
    index += 1;
  }
  if (oldSeen !== oldCount || newSeen !== newCount) return null;
  while (index < lines.length && lines[index].text.startsWith("\\")) {
    addBodyLine(builder, lines[index]);
    index += 1;
  }
  // Blank separators may follow; a body-shaped line after them means the counts were short.
  let after = index;
  while (after < lines.length && lines[after].text === "") after += 1;
  if (after < lines.length && isBodyLine(lines[after].text) && !startsSomethingElse(lines, after)) {
    return null;
  }
  return { builder, end: index };
}

/** Reads body lines by their shape, for headers whose counts are missing or wrong. */
function readByShape(
  lines: readonly PatchTextLine[],
  start: number,
): { builder: BodyBuilder; end: number } {
  const builder: BodyBuilder = { lines: [], withoutNewline: new Set() };
  let index = start;
  while (
    index < lines.length &&
    !startsSomethingElse(lines, index) &&
    isBodyLine(lines[index].text)
  ) {
    addBodyLine(builder, lines[index]);
    index += 1;
  }
  // Trailing blank lines separate the hunk from what follows; they are not context.
  while (index > start && lines[index - 1].text === "" && builder.lines.at(-1)?.text === "") {
    const last = builder.lines.length - 1;
    if (builder.lines[last].kind !== "context" || builder.withoutNewline.has(last)) break;
    builder.lines.pop();
    index -= 1;
  }
  return { builder, end: index };
}

function finishHunk(builder: BodyBuilder, hunk: Hunk): Hunk {
  hunk.lines = builder.lines;
  let lastOld = -1;
  let lastNew = -1;
  builder.lines.forEach((line, index) => {
    if (line.kind !== "add") lastOld = index;
    if (line.kind !== "delete") lastNew = index;
  });
  hunk.oldEndsWithoutNewline = lastOld !== -1 && builder.withoutNewline.has(lastOld);
  hunk.newEndsWithoutNewline = lastNew !== -1 && builder.withoutNewline.has(lastNew);
  return hunk;
}

/**
 * Reads the unified-diff hunk whose `@@` header is at `lines[start]`. The header's counts are
 * trusted only when the body agrees with them; otherwise the body is read by shape (models often
 * get the counts wrong). Returns null when no body line follows the header.
 */
export function readHunkBody(lines: readonly PatchTextLine[], start: number): HunkBody | null {
  const header = lines[start];
  const hunk = emptyHunk(header.number);
  const numbers = hunkHeaderPattern.exec(header.text);
  let counted: { builder: BodyBuilder; end: number } | null = null;
  if (numbers) {
    const oldStart = Number(numbers[1]);
    const oldCount = numbers[2] === undefined ? 1 : Number(numbers[2]);
    const newCount = numbers[4] === undefined ? 1 : Number(numbers[4]);
    hunk.statedIndex = oldCount === 0 ? oldStart : Math.max(0, oldStart - 1);
    counted = readCounted(lines, start + 1, oldCount, newCount);
    hunk.headerTrusted = counted !== null && (oldCount === 0 || oldStart > 0);
  }
  const body = counted ?? readByShape(lines, start + 1);
  if (body.builder.lines.length === 0) return null;
  return { hunk: finishHunk(body.builder, hunk), end: body.end };
}
