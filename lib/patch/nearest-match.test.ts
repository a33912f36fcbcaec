import { describe, expect, it } from "vitest";
import { LineIndex } from "./line-index";
import { findNearestMatch, lineSimilarity } from "./nearest-match";

describe("lineSimilarity", () => {
  it("is 1 for lines equal up to whitespace and look-alikes, lower as they differ", () => {
    expect(lineSimilarity("  return 'a';", "return \u2018a\u2019;")).toBe(1);
    const close = lineSimilarity("return total + tax;", "return total + taxes;");
    const far = lineSimilarity("return total + tax;", "import React from 'react';");
    expect(close).toBeGreaterThan(0.8);
    expect(far).toBeLessThan(0.3);
  });
});

describe("findNearestMatch", () => {
  const file = new LineIndex([
    "import a from 'a';",
    "",
    "function total(items) {",
    "  let sum = 0;",
    "  for (const item of items) sum += item.price;",
    "  return sum;",
    "}",
  ]);

  it("finds where a stale hunk was meant to go", () => {
    const expected = [
      "function total(items) {",
      "  let sum = 1;",
      "  for (const item of items) sum += item.price;",
    ];
    const nearest = findNearestMatch(file, expected, 0);
    expect(nearest?.start).toBe(2);
    expect(nearest?.similarity).toBeGreaterThan(0.9);
    expect(nearest?.similarity).toBeLessThan(1);
  });

  it("returns null when nothing resembles the hunk", () => {
    expect(findNearestMatch(file, ["zzzz qqqq", "xxxx yyyy"], 0)).toBeNull();
    expect(findNearestMatch(new LineIndex([]), ["a"], 0)).toBeNull();
  });
});
