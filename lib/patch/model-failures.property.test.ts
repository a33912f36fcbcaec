/**
 * The "wrong = 0" property for the ways models damage patches (issue 20): on random edits of
 * texts whose lines are distinct, every damaged patch either yields exactly the edit or is
 * refused — and the damages that have one reading are applied.
 */
import { createTwoFilesPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import { distinctEdit, fileName } from "./property-support";

const textOf = (lines: readonly string[]) => (lines.length === 0 ? "" : `${lines.join("\n")}\n`);

function diff(original: string[], edited: string[], context = 3): string {
  return createTwoFilesPatch(fileName, fileName, textOf(original), textOf(edited), "", "", {
    context,
  })
    .split("\n")
    .filter((line) => !line.startsWith("==="))
    .join("\n");
}

/** The patch's header lines and each hunk (its @@ line first). */
function hunksOf(patch: string): { header: string[]; hunks: string[][] } {
  const lines = patch.replace(/\n$/, "").split("\n");
  const first = lines.findIndex((line) => line.startsWith("@@"));
  const hunks: string[][] = [];
  for (const line of lines.slice(first)) {
    if (line.startsWith("@@")) hunks.push([line]);
    else hunks[hunks.length - 1].push(line);
  }
  return { header: lines.slice(0, first), hunks };
}

const join = (header: string[], hunks: string[][]) =>
  `${[...header, ...hunks.flat()].join("\n")}\n`;

function run(patch: string, text: string) {
  return applyPatch({ files: new Map([[fileName, text]]), patch });
}

/** The edit, or a refusal: anything else is a wrong result. */
function expectEditOrRefusal(patch: string, original: string[], edited: string[]) {
  const result = run(patch, textOf(original));
  if (result.ok) expect(result.updates.get(fileName)).toBe(textOf(edited));
  return result;
}

describe("model-damaged patches never apply wrongly", () => {
  it("a patch sent again after it applied is refused, never applied twice (1,000 cases)", () => {
    fc.assert(
      fc.property(distinctEdit, ({ original, edited }) => {
        const result = run(diff(original, edited), textOf(edited));
        expect(result.ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("hunks in reverse order apply as the edit (1,000 cases)", () => {
    fc.assert(
      fc.property(distinctEdit, ({ original, edited }) => {
        const { header, hunks } = hunksOf(diff(original, edited, 1));
        const result = expectEditOrRefusal(join(header, [...hunks].reverse()), original, edited);
        expect(result.ok).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("every hunk sent twice applies once (1,000 cases)", () => {
    fc.assert(
      fc.property(distinctEdit, ({ original, edited }) => {
        const { header, hunks } = hunksOf(diff(original, edited, 1));
        const doubled = hunks.flatMap((hunk) => [hunk, hunk]);
        const result = expectEditOrRefusal(join(header, doubled), original, edited);
        expect(result.ok).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("a JSON-escaped patch applies as the edit (500 cases)", () => {
    fc.assert(
      fc.property(distinctEdit, ({ original, edited }) => {
        const escaped = JSON.stringify(diff(original, edited)).slice(1, -1);
        const result = expectEditOrRefusal(escaped, original, edited);
        expect(result.ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("a hunk that swaps its trailing context for a placeholder is refused (1,000 cases)", () => {
    fc.assert(
      fc.property(distinctEdit, ({ original, edited }) => {
        const { header, hunks } = hunksOf(diff(original, edited));
        const body = hunks[0];
        const lastChange = body.findLastIndex(
          (line, index) => index > 0 && (line.startsWith("-") || line.startsWith("+")),
        );
        const trailing = body.slice(lastChange + 1).filter((line) => line.startsWith(" "));
        fc.pre(trailing.length > 0);
        const lazy = [
          ...body.slice(0, lastChange + 1),
          ...trailing.map((line) => `-${line.slice(1)}`),
          "+// ... existing code ...",
        ];
        const result = run(join(header, [lazy, ...hunks.slice(1)]), textOf(original));
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.failures.map((failure) => failure.code)).toContain("PATCH_LAZY_PLACEHOLDER");
      }),
      { numRuns: 1000 },
    );
  });

  it("context lines elided behind a marker yield the edit or a refusal (1,000 cases)", () => {
    fc.assert(
      fc.property(distinctEdit, fc.nat(), ({ original, edited }, pick) => {
        const { header, hunks } = hunksOf(diff(original, edited, 3));
        const body = hunks[0];
        const interior = body
          .map((line, index) => index)
          .filter((index) => index > 1 && index < body.length - 1 && body[index].startsWith(" "))
          .filter((index) => body[index - 1].startsWith(" ") && !body[index + 1].startsWith("+"));
        fc.pre(interior.length > 0);
        const at = interior[pick % interior.length];
        const elided = [...body.slice(0, at), " // ... existing code ...", ...body.slice(at + 1)];
        expectEditOrRefusal(join(header, [elided, ...hunks.slice(1)]), original, edited);
      }),
      { numRuns: 1000 },
    );
  });
});
