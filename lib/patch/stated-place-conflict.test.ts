import { describe, expect, it } from "vitest";
import { LineIndex } from "./line-index";
import { emptyHunk, type Hunk } from "./patch-model";
import { statedPlaceRivals } from "./stated-place-conflict";

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

const target = hunk([" open(file);", "-read(file, 10);", "+read(file, 20);", " close(file);"]);
const oldLines = ["open(file);", "read(file, 10);", "close(file);"];
const identity = (start: number) => ({ start, mapping: [start, start + 1, start + 2] });

describe("statedPlaceRivals", () => {
  it("sees a changed copy at the header's line as a rival of an exact match elsewhere", () => {
    const index = new LineIndex([
      "open(file);",
      "read(file, 11);",
      "close(file);",
      "x",
      "y",
      "z",
      "open(file);",
      "read(file, 10);",
      "close(file);",
    ]);
    expect(statedPlaceRivals(index, target, oldLines, 0, identity(6))).toBe(true);
  });

  it("sees nothing when the header's line holds unrelated lines, or is the chosen place", () => {
    const index = new LineIndex([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "open(file);",
      "read(file, 10);",
      "close(file);",
    ]);
    expect(statedPlaceRivals(index, target, oldLines, 0, identity(6))).toBe(false);
    expect(statedPlaceRivals(index, target, oldLines, 6, identity(6))).toBe(false);
  });
});
