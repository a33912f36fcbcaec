import { type EditCase, textOf } from "./make-edit";
import {
  buildModelFailure,
  type ModelFailureCategory,
  modelFailureCategories,
} from "./model-failures";
import type { Random } from "./random";

const firstRoundCategories = [
  "exact",
  "offset",
  "whitespace drift",
  "CRLF",
  "Unicode quotes",
  "wrong hunk counts",
  "missing context line",
  "ambiguous",
  "stale",
] as const;

export const categories = [...firstRoundCategories, ...modelFailureCategories] as const;

export type Category = (typeof categories)[number];

/** One file and patch to apply, and what applying it correctly means. */
export interface Variant {
  category: Category;
  source: string;
  file: string;
  patch: string;
  fileName: string;
  /** The text a correct application yields; null when only a refusal is correct. */
  intended: string | null;
  /** A refusal is the right answer (ambiguous, stale); applying is right only if it yields `intended`. */
  refusalIntended: boolean;
}

type Builder = (
  edit: EditCase,
  random: Random,
) => (Omit<Variant, "category" | "source" | "fileName" | "patch"> & { patch?: string }) | null;

interface Insertion {
  at: number;
  lines: string[];
}

/** Inserts lines at original positions outside every hunk, in the original and (mapped) in the edit. */
function insertOutsideHunks(
  edit: EditCase,
  insertions: readonly Insertion[],
): { original: string[]; edited: string[] } {
  const original = [...edit.original];
  const edited = [...edit.edited];
  for (const { at, lines } of [...insertions].sort((left, right) => right.at - left.at)) {
    const delta = edit.hunks
      .filter((hunk) => hunk.oldStart < at && hunk.oldStart + hunk.oldLength <= at)
      .reduce((sum, hunk) => sum + hunk.newLength - hunk.oldLength, 0);
    original.splice(at, 0, ...lines);
    edited.splice(at + delta, 0, ...lines);
  }
  return { original, edited };
}

function insideAHunk(edit: EditCase, position: number): boolean {
  return edit.hunks.some(
    (hunk) => hunk.oldStart < position && position < hunk.oldStart + hunk.oldLength,
  );
}

function fillerLines(random: Random, count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    random.chance(0.15)
      ? ""
      : `// ${random.pick(["note", "added", "moved", "later"])} ${random.integer(1000, 9999)} line ${index}`,
  );
}

const offset: Builder = (edit, random) => {
  const insertions: Insertion[] = [{ at: 0, lines: fillerLines(random, random.integer(5, 40)) }];
  if (edit.hunks.length > 1) {
    const first = edit.hunks[0];
    const gapStart = first.oldStart + first.oldLength;
    insertions.push({
      at: random.integer(gapStart, edit.hunks[1].oldStart),
      lines: fillerLines(random, random.integer(1, 12)),
    });
  }
  const { original, edited } = insertOutsideHunks(edit, insertions);
  return { file: textOf(original), intended: textOf(edited), refusalIntended: false };
};

function indentUnit(lines: readonly string[]): number {
  let fours = 0;
  let twos = 0;
  for (const line of lines) {
    const spaces = /^ */.exec(line)?.[0].length ?? 0;
    if (spaces === 0) continue;
    if (spaces % 4 === 0) fours += 1;
    else if (spaces % 2 === 0) twos += 1;
  }
  return twos > fours / 4 ? 2 : 4;
}

const whitespaceDrift: Builder = (edit, random) => {
  const original = [...edit.original];
  const edited = [...edit.edited];
  const unit = indentUnit(edit.original);
  const mode = random.pick(["trailing", "tabs", "reindent"] as const);
  const transform = (line: string): string => {
    if (line.trim() === "") return line;
    if (mode === "reindent") return `  ${line}`;
    const spaces = /^ */.exec(line)?.[0].length ?? 0;
    return "\t".repeat(Math.floor(spaces / unit)) + " ".repeat(spaces % unit) + line.slice(spaces);
  };
  for (const hunk of edit.hunks) {
    for (const line of hunk.lines) {
      if (mode === "trailing") {
        if (line.kind !== " " || random.chance(0.5)) continue;
        const changed = /\s$/.test(line.text) ? line.text.trimEnd() : `${line.text}  `;
        original[line.oldIndex as number] = changed;
        edited[line.newIndex as number] = changed;
        continue;
      }
      // The region was re-indented; the lines the edit adds belong in its new style too.
      if (line.oldIndex !== null) original[line.oldIndex] = transform(edit.original[line.oldIndex]);
      if (line.newIndex !== null) edited[line.newIndex] = transform(edit.edited[line.newIndex]);
    }
  }
  return { file: textOf(original), intended: textOf(edited), refusalIntended: false };
};

const crlf: Builder = (edit) => ({
  file: textOf(edit.original, "\r\n"),
  intended: textOf(edit.edited, "\r\n"),
  refusalIntended: false,
});

/** Curls quotes and dashes the way a chat model or word processor does. */
function smarten(text: string): string {
  let double = 0;
  return text
    .replace(/"/g, () => (double++ % 2 === 0 ? "\u201c" : "\u201d"))
    .replace(/'/g, "\u2019")
    .replace(/ - /g, " \u2013 ");
}

const unicodeQuotes: Builder = (edit) => {
  let inBody = false;
  let spaced = false;
  const lines = edit.patch.split("\n").map((line) => {
    if (line.startsWith("@@")) inBody = true;
    if (!inBody || !(line.startsWith(" ") || line.startsWith("-"))) return line;
    let changed = smarten(line.slice(1));
    // Every variant carries at least one look-alike: a non-breaking space inside a context line.
    if (!spaced && line.startsWith(" ") && /\S \S/.test(changed)) {
      changed = changed.replace(/(\S) (\S)/, "$1\u00a0$2");
      spaced = true;
    }
    return line[0] + changed;
  });
  return {
    patch: lines.join("\n"),
    file: textOf(edit.original),
    intended: textOf(edit.edited),
    refusalIntended: false,
  };
};

const wrongCounts: Builder = (edit, random) => {
  const skew = (count: number) => Math.max(0, count + random.pick([-2, -1, 1, 2, 3]));
  const patch = edit.patch.replace(
    /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/gm,
    (header, oldStart, oldCount, newStart, newCount) => {
      let oldWrong = skew(Number(oldCount));
      let newWrong = skew(Number(newCount));
      if (oldWrong === Number(oldCount)) oldWrong += 1;
      if (newWrong === Number(newCount)) newWrong += 1;
      return header.replace(
        `-${oldStart},${oldCount} +${newStart},${newCount}`,
        `-${oldStart},${oldWrong} +${newStart},${newWrong}`,
      );
    },
  );
  return {
    patch,
    file: textOf(edit.original),
    intended: textOf(edit.edited),
    refusalIntended: false,
  };
};

const missingContext: Builder = (edit, random) => {
  const hunk = edit.hunks[0];
  const choices = hunk.lines
    .map((line, index) => ({ line, index }))
    .filter(
      ({ line, index }) =>
        line.kind === " " &&
        hunk.lines[index - 1]?.kind !== "+" &&
        hunk.lines[index + 1]?.kind !== "+",
    );
  if (choices.length === 0) return null;
  const { line, index } = random.pick(choices);
  if (random.chance(0.5)) {
    // The model left a line out of the patch.
    const patchLines = edit.patch.split("\n");
    const header = patchLines.findIndex((text) => text.startsWith("@@"));
    patchLines.splice(header + 1 + index, 1);
    return {
      patch: patchLines.join("\n"),
      file: textOf(edit.original),
      intended: textOf(edit.edited),
      refusalIntended: false,
    };
  }
  // The file lost a line the patch still shows.
  const original = edit.original.filter((_, position) => position !== line.oldIndex);
  const edited = edit.edited.filter((_, position) => position !== line.newIndex);
  return { file: textOf(original), intended: textOf(edited), refusalIntended: false };
};

function occurrences(lines: readonly string[], block: readonly string[]): number[] {
  const starts: number[] = [];
  for (let start = 0; start + block.length <= lines.length; start += 1) {
    if (block.every((line, offset) => lines[start + offset] === line)) starts.push(start);
  }
  return starts;
}

const ambiguous: Builder = (edit, random) => {
  const hunk = edit.hunks[0];
  const block = edit.original.slice(hunk.oldStart, hunk.oldStart + hunk.oldLength);
  const positions: number[] = [];
  for (let position = 0; position <= edit.original.length; position += 1) {
    const far =
      position <= hunk.oldStart - block.length || position >= hunk.oldStart + 2 * block.length;
    if (far && !insideAHunk(edit, position)) positions.push(position);
  }
  if (positions.length === 0) return null;
  const copyAt = random.pick(positions);
  let fillerCount = random.integer(3, 30);
  // The header's line must point at neither copy: then nothing in the patch tells them apart.
  for (;;) {
    const { original, edited } = insertOutsideHunks(edit, [
      { at: 0, lines: fillerLines(random, fillerCount) },
      { at: copyAt, lines: block },
    ]);
    const starts = occurrences(original, block);
    if (!starts.includes(hunk.oldStart))
      return { file: textOf(original), intended: textOf(edited), refusalIntended: true };
    fillerCount += 1;
  }
};

const stale: Builder = (edit) => {
  const hunk = edit.hunks[0];
  const removed = hunk.lines.filter((line) => line.kind === "-");
  const firstAdded = hunk.lines.findIndex((line) => line.kind === "+");
  const target =
    removed.find((line) => /[A-Za-z_$][\w$]{2,}/.test(line.text)) ??
    removed[0] ??
    hunk.lines[firstAdded - 1];
  if (!target || target.oldIndex === null) return null;
  const original = [...edit.original];
  const text = original[target.oldIndex];
  // Someone else really changed the line this hunk edits: renamed a name in it, or added to it.
  const renamed = text.replace(/[A-Za-z_$][\w$]{2,}/, (name) => `${name}Changed`);
  original[target.oldIndex] = renamed === text ? `${text} /* changed elsewhere */` : renamed;
  return { file: textOf(original), intended: null, refusalIntended: true };
};

const modelFailure =
  (category: ModelFailureCategory): Builder =>
  (edit, random) =>
    buildModelFailure(category, edit, random);

const builders: Record<Category, Builder> = {
  ...(Object.fromEntries(
    modelFailureCategories.map((category) => [category, modelFailure(category)]),
  ) as Record<ModelFailureCategory, Builder>),
  exact: (edit) => ({
    file: textOf(edit.original),
    intended: textOf(edit.edited),
    refusalIntended: false,
  }),
  offset,
  "whitespace drift": whitespaceDrift,
  CRLF: crlf,
  "Unicode quotes": unicodeQuotes,
  "wrong hunk counts": wrongCounts,
  "missing context line": missingContext,
  ambiguous,
  stale,
};

/** The variant of an edit for a category, or null when the edit cannot express it. */
export function buildVariant(category: Category, edit: EditCase, random: Random): Variant | null {
  const built = builders[category](edit, random);
  if (!built) return null;
  return {
    category,
    source: edit.source.name,
    fileName: edit.fileName,
    patch: built.patch ?? edit.patch,
    file: built.file,
    intended: built.intended,
    refusalIntended: built.refusalIntended,
  };
}
