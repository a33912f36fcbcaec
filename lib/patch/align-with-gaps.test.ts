import { describe, expect, it } from "vitest";
import { findGappedPlacements } from "./align-with-gaps";
import { LineIndex } from "./line-index";
import { emptyHunk, type Hunk } from "./patch-model";

function hunk(lines: string[]): Hunk {
  return {
    ...emptyHunk(1),
    lines: lines.map((line) => ({
      kind: line[0] === "-" ? "delete" : line[0] === "+" ? "add" : "context",
      text: line.slice(1),
      carriageReturn: false,
    })),
  };
}

const source = [
  "import x;",
  "function total(items) {",
  "  let sum = 0;",
  "  for (const item of items) sum += item;",
  "  return sum;",
  "}",
  "export default total;",
];
const index = new LineIndex(source);
const placements = (target: Hunk) =>
  findGappedPlacements(index, target, { from: 0, until: source.length }, 5).map(
    ({ start, end, mapping, gaps }) => ({
      start,
      end,
      mapping,
      gaps,
    }),
  );

describe("findGappedPlacements", () => {
  it("tolerates one context line the file no longer has, not two", () => {
    const twoGaps = hunk([
      " function total(items) {",
      " // gone",
      "   let sum = 0;",
      "-  return sum;",
      "+  return sum * 2;",
      " }",
    ]);
    expect(placements(twoGaps)).toEqual([]);
    const near = hunk([
      " function total(items) {",
      " // a comment that is gone",
      "   let sum = 0;",
      "   for (const item of items) sum += item;",
      "-  return sum;",
      "+  return sum * 2;",
    ]);
    expect(placements(near)).toEqual([{ start: 1, end: 5, mapping: [1, -1, 2, 3, 4], gaps: 1 }]);
  });

  it("tolerates a line the file has and the patch skipped", () => {
    const target = hunk([
      " function total(items) {",
      "   let sum = 0;",
      "-  return sum;",
      "+  return sum * 2;",
      " }",
    ]);
    expect(placements(target)).toEqual([{ start: 1, end: 6, mapping: [1, 2, 4, 5], gaps: 1 }]);
  });

  it("needs the lines around a pure insertion to touch in the file", () => {
    const target = hunk([
      " function total(items) {",
      "   let sum = 0;",
      "+  const tax = 1;",
      "   return sum;",
      " }",
    ]);
    expect(placements(target)).toEqual([]);
  });

  it("needs every removed line, contiguous", () => {
    expect(
      placements(hunk([" function total(items) {", "-  let sum = 0;", "-  return sum;", " }"])),
    ).toEqual([]);
    expect(
      placements(
        hunk([
          " function total(items) {",
          "-  let total = 0;",
          "   for (const item of items) sum += item;",
        ]),
      ),
    ).toEqual([]);
  });

  it("needs three matching lines, two with letters or digits", () => {
    const braces = new LineIndex(["{", "}", "x", "}", "{"]);
    expect(
      findGappedPlacements(braces, hunk([" {", " }", "-x", " ]"]), { from: 0, until: 5 }, 5),
    ).toEqual([]);
  });

  it("returns every distinct placement so the caller can refuse", () => {
    const repeated = new LineIndex([
      "alpha",
      "beta",
      "gamma",
      "delta",
      "alpha",
      "beta",
      "gamma",
      "delta",
    ]);
    const target = hunk([" alpha", " missing", " beta", "-gamma", "+GAMMA", " delta"]);
    const starts = (bounds: { from: number; until: number; lastStart?: number }) =>
      findGappedPlacements(repeated, target, bounds, 5).map((placement) => placement.start);
    expect(starts({ from: 0, until: 8 })).toEqual([0, 4]);
    expect(starts({ from: 0, until: 8, lastStart: 3 })).toEqual([0]);
    expect(starts({ from: 0, until: 6 })).toEqual([0]);
    expect(starts({ from: 2, until: 8 })).toEqual([4]);
  });
});
