import { describe, expect, it } from "vitest";
import { foldLookalikes, ignoresIndentation, normalizeLine } from "./line-tolerance";

describe("normalizeLine", () => {
  it("forgives more at each step, never less", () => {
    const fileLine = "  const name = 'x'; ";
    const patchLine = "\tconst name = \u2018x\u2019;";
    expect(normalizeLine(fileLine, "exact")).not.toBe(normalizeLine(patchLine, "exact"));
    expect(normalizeLine(fileLine, "trailing-whitespace")).not.toBe(
      normalizeLine(patchLine, "trailing-whitespace"),
    );
    expect(normalizeLine(fileLine, "surrounding-whitespace")).not.toBe(
      normalizeLine(patchLine, "surrounding-whitespace"),
    );
    expect(normalizeLine(fileLine, "unicode-lookalike")).toBe(
      normalizeLine(patchLine, "unicode-lookalike"),
    );
  });

  it("keeps leading whitespace under trailing-whitespace", () => {
    expect(normalizeLine("  x \t", "trailing-whitespace")).toBe("  x");
  });

  it("says which comparisons ignore indentation", () => {
    expect(ignoresIndentation("trailing-whitespace")).toBe(false);
    expect(ignoresIndentation("surrounding-whitespace")).toBe(true);
  });
});

describe("foldLookalikes", () => {
  it.each([
    ["\u201chello\u201d", '"hello"'],
    ["it\u2019s", "it's"],
    ["a \u2013 b \u2014 c \u2212 d", "a - b - c - d"],
    ["a\u00a0b\u202fc", "a b c"],
    ["wait\u2026", "wait..."],
    ["zero\u200bwidth", "zerowidth"],
    ["cafe\u0301", "caf\u00e9"],
    ["plain ascii", "plain ascii"],
  ])("folds %j", (line, folded) => {
    expect(foldLookalikes(line)).toBe(folded);
  });
});
