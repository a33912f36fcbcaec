/**
 * Property tests (fast-check). Counts add up, with apply-patch.fuzz.test.ts, to 10,000 cases.
 * Texts with repeated lines exercise line-number trust; texts with distinct lines let every
 * perturbation have exactly one right answer, so "b or a clean failure, never a third text"
 * can be checked exactly.
 */
import { createTwoFilesPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import type { PatchResult } from "./patch-result";
import {
  diffOf,
  distinctEdit,
  distinctLines,
  type ExpectedLine,
  fileName,
  render,
  repetitiveLine,
  type TextShape,
  textShape,
} from "./property-support";

const run = (patch: string, files: ReadonlyMap<string, string>): PatchResult =>
  applyPatch({ files, patch });
const resultText = (result: PatchResult) =>
  result.ok ? (result.updates.get(fileName) ?? undefined) : undefined;

function expectCleanFailure(result: PatchResult): void {
  if (result.ok) return;
  expect(result.summary.length).toBeGreaterThan(0);
  expect(result.failures.length).toBeGreaterThan(0);
}

describe("a diff made by the diff package applies to its original and yields the edit", () => {
  it("for random texts with repeated lines, any endings and final newlines (2,500 cases)", () => {
    fc.assert(
      fc.property(
        textShape(fc.array(repetitiveLine, { maxLength: 30 })),
        textShape(fc.array(repetitiveLine, { maxLength: 30 })),
        fc.boolean(),
        (a, b, git) => {
          const before = render(a);
          const after = render(b);
          const names = git ? [`a/${fileName}`, `b/${fileName}`] : [fileName, fileName];
          const patch =
            (git ? `diff --git a/${fileName} b/${fileName}\n` : "") +
            createTwoFilesPatch(names[0], names[1], before, after);
          const result = run(patch, new Map([[fileName, before]]));
          if (before === after) {
            expect(result.ok).toBe(false);
            return;
          }
          expect(result.ok ? null : result.summary).toBeNull();
          expect(resultText(result)).toBe(after);
        },
      ),
      { numRuns: 2500 },
    );
  });

  it("as a *** Begin Patch (no line numbers): the edit, or a refusal as ambiguous (1,000 cases)", () => {
    const line = repetitiveLine.filter(
      (text) =>
        !text.startsWith("***") &&
        !text.startsWith("@@") &&
        text !== "\\ No newline at end of file",
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 25 }),
        fc.array(line, { maxLength: 25 }),
        (aLines, bLines) => {
          const before = aLines.map((text) => `${text}\n`).join("");
          const after = bLines.map((text) => `${text}\n`).join("");
          fc.pre(before !== after);
          const { hunks } = diffOf(before, after, 2);
          const body = hunks.flatMap((hunk) => ["@@", ...hunk.lines]);
          const patch = [
            "*** Begin Patch",
            `*** Update File: ${fileName}`,
            ...body,
            "*** End Patch",
            "",
          ].join("\n");
          const result = run(patch, new Map([[fileName, before]]));
          // The edit, or a refusal as ambiguous — never a third text.
          expect([after, "PATCH_AMBIGUOUS_MATCH"]).toContain(
            result.ok ? resultText(result) : result.code,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});

interface Perturbed {
  before: string;
  expected: ExpectedLine[];
  shape: TextShape;
}

/** a and b with distinct lines, and the diff between them. */
const editCase = fc.record({
  edit: distinctEdit,
  ending: fc.constantFrom("\n" as const, "\r\n" as const),
  finalNewline: fc.boolean(),
  context: fc.integer({ min: 1, max: 4 }),
});

function expectedLines(lines: readonly string[], added: ReadonlySet<number>): ExpectedLine[] {
  return lines.map((text, index) => ({ text, added: added.has(index) }));
}

/** Checks a result against b' line by line: exact, except the indentation of added lines. */
function matchesExpected(result: PatchResult, perturbed: Perturbed): boolean {
  const text = resultText(result);
  if (text === undefined) return false;
  const expected = render({
    ...perturbed.shape,
    lines: perturbed.expected.map((line) => line.text),
  });
  if (text === expected) return true;
  const actualLines = text.split(perturbed.shape.ending);
  const expectedLinesOnly = expected.split(perturbed.shape.ending);
  if (actualLines.length !== expectedLinesOnly.length) return false;
  return actualLines.every((line, index) => {
    const wanted = expectedLinesOnly[index];
    const entry = perturbed.expected[index];
    return line === wanted || (entry?.added === true && line.trim() === wanted.trim());
  });
}

describe("perturbed files give the edit or a clean failure, never a third text", () => {
  it("with random lines inserted above the hunks: always the edit (1,500 cases)", () => {
    fc.assert(
      fc.property(
        editCase,
        distinctLines(1, 6),
        fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
        ({ edit, ending, finalNewline, context }, extra, seeds) => {
          // An edit that empties the file leaves the inserted lines' final newline unspecified.
          fc.pre(edit.edited.length > 0);
          const known = new Set([...edit.original, ...edit.edited].map((line) => line.trim()));
          const inserted = extra.filter((line) => !known.has(line.trim()));
          const shape = { lines: edit.original, ending, finalNewline };
          const before = render(shape);
          const after = render({ ...shape, lines: edit.edited });
          const { hunks, addedNew } = diffOf(before, after, context);
          const lastStart = hunks[hunks.length - 1].oldStart - 1;
          const allowed: number[] = [];
          for (let position = 0; position <= lastStart; position += 1) {
            if (
              !hunks.some(
                (hunk) =>
                  hunk.oldStart - 1 < position && position < hunk.oldStart - 1 + hunk.oldLines,
              )
            )
              allowed.push(position);
          }
          const placements = inserted
            .map((line, index) => ({ line, at: allowed[seeds[index] % allowed.length] }))
            .sort((x, y) => y.at - x.at);
          const perturbedOriginal = [...edit.original];
          const expected = expectedLines(edit.edited, addedNew);
          for (const { line, at } of placements) {
            const delta = hunks
              .filter((hunk) => hunk.oldStart - 1 + hunk.oldLines <= at && hunk.oldStart - 1 < at)
              .reduce((sum, hunk) => sum + hunk.newLines - hunk.oldLines, 0);
            perturbedOriginal.splice(at, 0, line);
            expected.splice(at + delta, 0, { text: line, added: false });
          }
          const patch = createTwoFilesPatch(
            fileName,
            fileName,
            before,
            after,
            undefined,
            undefined,
            { context },
          );
          const result = run(
            patch,
            new Map([[fileName, render({ ...shape, lines: perturbedOriginal })]]),
          );
          expect(result.ok ? null : result.summary).toBeNull();
          expect(matchesExpected(result, { before, expected, shape })).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });

  const contextPerturbation = (name: string, change: (line: string, seed: number) => string) =>
    it(`with ${name} (1,500 cases)`, () => {
      fc.assert(
        fc.property(
          editCase,
          fc.array(fc.nat(), { minLength: 60, maxLength: 60 }),
          ({ edit, ending, finalNewline, context }, seeds) => {
            const shape = { lines: edit.original, ending, finalNewline };
            const before = render(shape);
            const after = render({ ...shape, lines: edit.edited });
            const { contextPairs, addedNew } = diffOf(before, after, context);
            const perturbedOriginal = [...edit.original];
            const expected = expectedLines(edit.edited, addedNew);
            contextPairs.forEach(({ oldIndex, newIndex }, index) => {
              if (seeds[index % seeds.length] % 2 === 0) return;
              const changed = change(perturbedOriginal[oldIndex], seeds[index % seeds.length]);
              perturbedOriginal[oldIndex] = changed;
              expected[newIndex] = { text: changed, added: false };
            });
            const patch = createTwoFilesPatch(
              fileName,
              fileName,
              before,
              after,
              undefined,
              undefined,
              { context },
            );
            const result = run(
              patch,
              new Map([[fileName, render({ ...shape, lines: perturbedOriginal })]]),
            );
            expect(result.ok ? null : result.summary).toBeNull();
            expect(matchesExpected(result, { before, expected, shape })).toBe(true);
          },
        ),
        { numRuns: 1500 },
      );
    });

  contextPerturbation("trailing whitespace changed on context lines", (line, seed) => {
    const trailing = ["", " ", "  ", "\t", " \t"][seed % 5];
    const changed = line.trimEnd() + trailing;
    return changed === line ? `${line.trimEnd()} \t ` : changed;
  });

  contextPerturbation("tabs and spaces swapped in the indentation of context lines", (line) => {
    const lead = /^[ \t]*/.exec(line)?.[0] ?? "";
    const swapped = lead.includes("\t")
      ? lead.replace(/\t/g, "  ")
      : "\t".repeat(Math.ceil(lead.length / 2));
    return swapped + line.slice(lead.length);
  });

  it("with a context line missing from the file or from the patch: the edit or a refusal (500 cases)", () => {
    let applied = 0;
    fc.assert(
      fc.property(
        editCase,
        fc.nat(),
        fc.boolean(),
        ({ edit, ending, finalNewline, context }, seed, fromFile) => {
          const shape = { lines: edit.original, ending, finalNewline };
          const before = render(shape);
          const after = render({ ...shape, lines: edit.edited });
          const { contextPairs, addedNew } = diffOf(before, after, Math.max(2, context));
          fc.pre(contextPairs.length > 0);
          const { oldIndex, newIndex } = contextPairs[seed % contextPairs.length];
          const patch = createTwoFilesPatch(
            fileName,
            fileName,
            before,
            after,
            undefined,
            undefined,
            { context: Math.max(2, context) },
          );
          const expected = expectedLines(edit.edited, addedNew);
          let file = before;
          let patchText = patch;
          if (fromFile) {
            file = render({
              ...shape,
              lines: edit.original.filter((_, index) => index !== oldIndex),
            });
            expected.splice(newIndex, 1);
          } else {
            const patchLines = patch.split("\n");
            const target = patchLines.findIndex(
              (line, index) =>
                index > 3 && line === ` ${edit.original[oldIndex]}${ending === "\r\n" ? "\r" : ""}`,
            );
            // Dropping the line next to an added line moves the addition: a different, valid patch.
            fc.pre(
              !patchLines[target - 1]?.startsWith("+") && !patchLines[target + 1]?.startsWith("+"),
            );
            patchLines.splice(target, 1);
            patchText = patchLines.join("\n");
          }
          const result = run(patchText, new Map([[fileName, file]]));
          expectCleanFailure(result);
          if (result.ok) {
            applied += 1;
            expect(matchesExpected(result, { before, expected, shape })).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
    // Most of these must apply, or the property above proves nothing.
    expect(applied).toBeGreaterThan(250);
  });
});
