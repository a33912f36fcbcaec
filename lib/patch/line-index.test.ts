import { describe, expect, it } from "vitest";
import { LineIndex } from "./line-index";

describe("LineIndex", () => {
  const index = new LineIndex(["a", "b", "c", "a", "b", " c "]);

  it("finds every start of a block after a line, by its rarest line", () => {
    expect(index.findBlock("exact", ["a", "b"], 0, 10)).toEqual([0, 3]);
    expect(index.findBlock("exact", ["a", "b"], 1, 10)).toEqual([3]);
    expect(index.findBlock("exact", ["a", "b", "c"], 0, 10)).toEqual([0]);
    expect(index.findBlock("surrounding-whitespace", ["a", "b", "c"], 0, 10)).toEqual([0, 3]);
    expect(index.findBlock("exact", ["a", "b"], 0, 1)).toEqual([0]);
    expect(index.findBlock("exact", ["z"], 0, 10)).toEqual([]);
  });

  it("stops a block at the end of the file", () => {
    expect(index.findBlock("surrounding-whitespace", ["c", "x"], 0, 10)).toEqual([]);
  });

  it("checks a block at one place", () => {
    expect(index.matchesAt("exact", ["b", "c"], 1)).toBe(true);
    expect(index.matchesAt("exact", ["b", "c"], 4)).toBe(false);
    expect(index.matchesAt("trailing-whitespace", ["b", " c"], 4)).toBe(true);
    expect(index.matchesAt("exact", ["a"], -1)).toBe(false);
  });
});
