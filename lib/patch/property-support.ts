/**
 * Generators and helpers for the patch engine's property tests: random texts, diffs of them made
 * by the `diff` package, and perturbed files with the text a correct engine must produce.
 */
import { structuredPatch } from "diff";
import fc from "fast-check";
import { foldLookalikes } from "./line-tolerance";

export const fileName = "file.txt";

export interface TextShape {
  lines: string[];
  ending: "\n" | "\r\n";
  finalNewline: boolean;
}

export function render({ lines, ending, finalNewline }: TextShape): string {
  if (lines.length === 0) return "";
  return lines.join(ending) + (finalNewline ? ending : "");
}

/** Lines from a small alphabet, so blocks repeat and hunks are often ambiguous by content alone. */
export const repetitiveLine = fc.constantFrom(
  "",
  "a",
  "b",
  "  a",
  "\tb",
  "}",
  "x = 1;",
  "x = 2; ",
  "--- a/x",
  "+++ b/x",
  "@@ -1 +1 @@",
  "\\ No newline at end of file",
  "*** End Patch",
  "caf\u00e9 \u201cq\u201d",
);

const bodyCharacter = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyzABCXYZ0123456789(){};=.,'\"-_ \u00e9\u00fc",
);

/** A line with indentation, a body with substance, and sometimes trailing whitespace. */
export const distinctiveLine = fc
  .tuple(
    fc.constantFrom("", "", "  ", "    ", "\t", "\t\t"),
    fc
      .string({ unit: bodyCharacter, minLength: 1, maxLength: 12 })
      .filter((body) => /[a-z0-9]/i.test(body)),
    fc.constantFrom("", "", "", " ", "\t"),
  )
  .map(([indent, body, trailing]) => `${indent}${body.trim()}${trailing}`);

/** Lines that stay distinct under the loosest comparison, so a hunk fits one place only. */
export function distinctLines(minimum: number, maximum: number): fc.Arbitrary<string[]> {
  return fc.uniqueArray(distinctiveLine, {
    minLength: minimum,
    maxLength: maximum,
    selector: (line) => foldLookalikes(line).trim(),
  });
}

export const textShape = (lines: fc.Arbitrary<string[]>): fc.Arbitrary<TextShape> =>
  fc.record({
    lines,
    ending: fc.constantFrom("\n" as const, "\r\n" as const),
    finalNewline: fc.boolean(),
  });

/** One line of a's fate when b is made from it. */
type Fate = "keep" | "delete" | "replace" | "insert";
const fate = fc.constantFrom<Fate>(
  "keep",
  "keep",
  "keep",
  "keep",
  "keep",
  "keep",
  "delete",
  "replace",
  "insert",
);

/**
 * An original with distinct lines and an edit of it: lines kept, deleted, replaced or preceded
 * by new lines, the new lines distinct from every other.
 */
export const distinctEdit = fc
  .record({
    pool: distinctLines(6, 60),
    fates: fc.array(fate, { minLength: 60, maxLength: 60 }),
    split: fc.integer({ min: 3, max: 30 }),
  })
  .map(({ pool, fates, split }) => {
    const count = Math.min(split, pool.length - 3);
    const original = pool.slice(0, count);
    const fresh = pool.slice(count);
    const edited: string[] = [];
    original.forEach((line, index) => {
      const outcome = fates[index];
      if (outcome === "insert" && fresh.length > 0) edited.push(fresh.pop() as string, line);
      else if (outcome === "replace" && fresh.length > 0) edited.push(fresh.pop() as string);
      else if (outcome !== "delete") edited.push(line);
    });
    if (edited.join("\n") === original.join("\n")) edited.push(fresh.pop() as string);
    return { original, edited };
  });

/** A line of b', and whether the patch added it (its indentation may be adapted). */
export interface ExpectedLine {
  text: string;
  added: boolean;
}

export interface HunkLinePair {
  oldIndex: number;
  newIndex: number;
}

/** The diff of two texts as jsdiff's structured hunks, with the old→new index of every context line. */
export function diffOf(before: string, after: string, context: number) {
  const patch = structuredPatch(fileName, fileName, before, after, undefined, undefined, {
    context,
  });
  const contextPairs: HunkLinePair[] = [];
  const addedNew = new Set<number>();
  for (const hunk of patch.hunks) {
    let oldIndex = hunk.oldStart - 1;
    let newIndex = hunk.newStart - 1;
    if (hunk.oldLines === 0) oldIndex += 1;
    if (hunk.newLines === 0) newIndex += 1;
    for (const line of hunk.lines) {
      if (line[0] === " ") contextPairs.push({ oldIndex: oldIndex++, newIndex: newIndex++ });
      else if (line[0] === "-") oldIndex += 1;
      else if (line[0] === "+") addedNew.add(newIndex++);
    }
  }
  return { hunks: patch.hunks, contextPairs, addedNew };
}

/** Splits a text on "\n" for line-by-line comparison (endings stay on the lines). */
export function linesOf(text: string): string[] {
  return text.split("\n");
}
