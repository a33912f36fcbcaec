import { describe, expect, it } from "vitest";
import { dominantLineEnding, joinText, splitText } from "./text-lines";

describe("splitText", () => {
  it.each([
    ["", [], []],
    ["a", ["a"], [""]],
    ["a\n", ["a"], ["\n"]],
    ["a\r\nb", ["a", "b"], ["\r\n", ""]],
    ["\n\n", ["", ""], ["\n", "\n"]],
    ["a\rb\n", ["a\rb"], ["\n"]],
    ["x\r\ny\n", ["x", "y"], ["\r\n", "\n"]],
  ])("splits %j", (text, lines, endings) => {
    const split = splitText(text);
    expect(split.lines).toEqual(lines);
    expect(split.endings).toEqual(endings);
    expect(joinText(split)).toBe(text);
  });

  it("sets a byte-order mark aside and restores it", () => {
    const split = splitText("\uFEFFfirst\nsecond\n");
    expect(split.byteOrderMark).toBe(true);
    expect(split.lines[0]).toBe("first");
    expect(joinText(split)).toBe("\uFEFFfirst\nsecond\n");
  });
});

describe("dominantLineEnding", () => {
  it("is what splitText counts too", () => {
    expect(splitText("a\r\nb\r\nc\n").dominantEnding).toBe("\r\n");
    expect(splitText("a\r\nb\nc\n").dominantEnding).toBe("\n");
    expect(splitText("a\r\nb").dominantEnding).toBe("\r\n");
    expect(splitText("").dominantEnding).toBe("\n");
  });

  it("follows the majority and defaults to LF", () => {
    expect(dominantLineEnding(["\r\n", "\r\n", "\n"])).toBe("\r\n");
    expect(dominantLineEnding(["\n", "\r\n"])).toBe("\n");
    expect(dominantLineEnding([""])).toBe("\n");
    expect(dominantLineEnding([])).toBe("\n");
  });
});
