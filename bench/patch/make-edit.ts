import { createTwoFilesPatch, structuredPatch } from "diff";
import type { SourceFile } from "./corpus-sources";
import type { Random } from "./random";

/** One line of a hunk, with where it sits in the original (old) and edited (new) file. */
export interface MappedLine {
  kind: " " | "-" | "+";
  text: string;
  oldIndex: number | null;
  newIndex: number | null;
}

export interface MappedHunk {
  /** 0-based first line of the hunk in the original, and how many original lines it covers. */
  oldStart: number;
  oldLength: number;
  newStart: number;
  newLength: number;
  lines: MappedLine[];
}

/** A real edit of a real file: the original, the edited text, and the patch between them. */
export interface EditCase {
  source: SourceFile;
  fileName: string;
  original: string[];
  edited: string[];
  patch: string;
  hunks: MappedHunk[];
}

const substantial = /[A-Za-z0-9_$]{3,}/;
const identifier = /[A-Za-z_$][\w$]{2,}/g;

export function textOf(lines: readonly string[], ending = "\n"): string {
  return lines.length === 0 ? "" : lines.join(ending) + ending;
}

/** The unified diff of two line lists, git style (a/ and b/ prefixes, three context lines). */
export function diffOf(
  fileName: string,
  original: readonly string[],
  edited: readonly string[],
): string {
  const patch = createTwoFilesPatch(
    `a/${fileName}`,
    `b/${fileName}`,
    textOf(original),
    textOf(edited),
    undefined,
    undefined,
    {
      context: 3,
    },
  );
  // jsdiff may start with "Index:" and a "====" rule; git and GNU patch do not need them.
  const lines = patch.split("\n");
  while (lines.length > 0 && (lines[0].startsWith("Index:") || lines[0].startsWith("====")))
    lines.shift();
  return lines.join("\n");
}

/** jsdiff's hunks with every line's old and new position. */
export function mapHunks(
  fileName: string,
  original: readonly string[],
  edited: readonly string[],
): MappedHunk[] {
  const structured = structuredPatch(
    fileName,
    fileName,
    textOf(original),
    textOf(edited),
    undefined,
    undefined,
    { context: 3 },
  );
  return structured.hunks.map((hunk) => {
    let oldIndex = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    let newIndex = hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1;
    const lines: MappedLine[] = [];
    for (const line of hunk.lines) {
      const kind = line[0];
      if (kind === " ")
        lines.push({ kind, text: line.slice(1), oldIndex: oldIndex++, newIndex: newIndex++ });
      else if (kind === "-")
        lines.push({ kind, text: line.slice(1), oldIndex: oldIndex++, newIndex: null });
      else if (kind === "+")
        lines.push({ kind, text: line.slice(1), oldIndex: null, newIndex: newIndex++ });
    }
    return {
      oldStart: hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1,
      oldLength: hunk.oldLines,
      newStart: hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1,
      newLength: hunk.newLines,
      lines,
    };
  });
}

function newLine(source: SourceFile, indent: string, random: Random): string {
  const word = random.pick([
    "ready",
    "pending",
    "retry",
    "flush",
    "lane",
    "queue",
    "scope",
    "hydrate",
    "suspend",
  ]);
  const number = random.integer(1, 99);
  if (source.extension === ".ts") return `${indent}${word}${number}?: string;`;
  return `${indent}trace("${word}", ${number});`;
}

function modifyLine(line: string, random: Random): string {
  const tokens = [...line.matchAll(identifier)];
  if (tokens.length === 0) return `${line} // edited`;
  const token = random.pick(tokens);
  const index = token.index ?? 0;
  return `${line.slice(0, index)}${token[0]}Next${line.slice(index + token[0].length)}`;
}

/**
 * Makes a realistic edit of a file: one to three regions, far enough apart to be separate hunks,
 * each modifying a line, inserting lines, deleting a line or replacing two.
 */
export function makeEdit(source: SourceFile, random: Random): EditCase {
  const original = source.lines;
  const regionCount = random.pick([1, 1, 1, 2, 3]);
  const starts: number[] = [];
  for (let attempt = 0; attempt < 200 && starts.length < regionCount; attempt += 1) {
    const start = random.integer(5, original.length - 6);
    if (!substantial.test(original[start]) || !substantial.test(original[start + 1])) continue;
    if (starts.some((other) => Math.abs(other - start) < 14)) continue;
    starts.push(start);
  }
  const edited = [...original];
  for (const start of starts.sort((left, right) => right - left)) {
    const indent = /^\s*/.exec(original[start])?.[0] ?? "";
    const operation = random.pick(["modify", "modify", "insert", "delete", "replace"]);
    if (operation === "modify") edited[start] = modifyLine(original[start], random);
    else if (operation === "insert") {
      const count = random.integer(1, 3);
      edited.splice(
        start + 1,
        0,
        ...Array.from({ length: count }, () => newLine(source, indent, random)),
      );
    } else if (operation === "delete") edited.splice(start, 1);
    else
      edited.splice(
        start,
        2,
        modifyLine(original[start], random),
        newLine(source, indent, random),
        modifyLine(original[start + 1], random),
      );
  }
  const extension = source.extension === ".ts" ? ".ts" : ".js";
  const fileName = `target${extension}`;
  return {
    source,
    fileName,
    original,
    edited,
    patch: diffOf(fileName, original, edited),
    hunks: mapHunks(fileName, original, edited),
  };
}
