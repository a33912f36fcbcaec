import { describe, expect, it } from "vitest";
import { buildRefreshWindows, numberLines, windowAround } from "./refresh-windows";

const lines = Array.from({ length: 200 }, (_, index) => `line ${index + 1}`);

describe("buildRefreshWindows", () => {
  it("numbers lines from 1 with aligned numbers", () => {
    expect(numberLines(["a", "b"], 8, 10)).toBe(" 9 | undefined\n10 | undefined");
    expect(numberLines(lines, 0, 2)).toBe("1 | line 1\n2 | line 2");
  });

  it("clips to the file and merges overlapping spans of one file", () => {
    const windows = buildRefreshWindows([
      windowAround("a.ts", lines, 2, 3),
      windowAround("a.ts", lines, 10, 2),
      windowAround("b.ts", lines.slice(0, 5), 0, 1),
    ]);
    expect(windows.map(({ path, start_line, end_line }) => [path, start_line, end_line])).toEqual([
      ["a.ts", 1, 18],
      ["b.ts", 1, 5],
    ]);
    expect(windows[0].content.split("\n")[0]).toBe(" 1 | line 1");
  });

  it("keeps separate spans apart and caps a window's length", () => {
    const windows = buildRefreshWindows([
      { path: "a.ts", lines, start: 0, end: 3 },
      { path: "a.ts", lines, start: 50, end: 199 },
    ]);
    expect(windows.map(({ start_line, end_line }) => [start_line, end_line])).toEqual([
      [1, 3],
      [51, 170],
    ]);
  });

  it("drops spans outside the file", () => {
    expect(buildRefreshWindows([{ path: "a.ts", lines: [], start: 0, end: 5 }])).toEqual([]);
  });
});
