import { describe, expect, it } from "vitest";
import {
  readGitHeaderNames,
  readHeaderName,
  readQuotedName,
  stripGitPrefixes,
} from "./parse-path-header";

describe("readHeaderName", () => {
  it.each([
    ["a/src/App.tsx", "a/src/App.tsx"],
    ["a/x.txt\t2024-01-01 10:00:00.000000000 +0000", "a/x.txt"],
    ["  b/with space.ts  ", "b/with space.ts"],
    ['"a/caf\\303\\251 \\"q\\".txt"', 'a/café "q".txt'],
    ["/dev/null", "/dev/null"],
  ])("reads %j", (rest, name) => {
    expect(readHeaderName(rest)).toBe(name);
  });
});

describe("readQuotedName", () => {
  it("decodes escapes and reports an unterminated quote", () => {
    expect(readQuotedName('"a\\tb\\n"', 0)).toEqual({ name: "a\tb\n", end: 8 });
    expect(readQuotedName('"open', 0)).toBeNull();
  });
});

describe("readGitHeaderNames", () => {
  it.each([
    ["a/x.ts b/x.ts", "a/x.ts", "b/x.ts"],
    ["a/my file.ts b/my file.ts", "a/my file.ts", "b/my file.ts"],
    ['"a/t\\tx" "b/t\\tx"', "a/t\tx", "b/t\tx"],
    ["a/old.ts b/new.ts", "a/old.ts", "b/new.ts"],
  ])("reads %j", (rest, oldName, newName) => {
    expect(readGitHeaderNames(rest)).toEqual({ oldName, newName });
  });

  it("gives up on an unquoted rename with spaces it cannot split", () => {
    expect(readGitHeaderNames("a/x y b/z w")).toBeNull();
  });
});

describe("stripGitPrefixes", () => {
  it("strips a/ and b/ only as a pair", () => {
    expect(stripGitPrefixes("a/src/x", "b/src/x", false)).toEqual({
      oldName: "src/x",
      newName: "src/x",
    });
    expect(stripGitPrefixes("a/x", "a/x", false)).toEqual({ oldName: "a/x", newName: "a/x" });
    expect(stripGitPrefixes("src/x", "src/x", false)).toEqual({
      oldName: "src/x",
      newName: "src/x",
    });
  });

  it("strips beside /dev/null", () => {
    expect(stripGitPrefixes("/dev/null", "b/new.ts", false)).toEqual({
      oldName: "/dev/null",
      newName: "new.ts",
    });
    expect(stripGitPrefixes("a/gone.ts", "/dev/null", false)).toEqual({
      oldName: "gone.ts",
      newName: "/dev/null",
    });
  });

  it("strips mnemonic prefixes only under a git header", () => {
    expect(stripGitPrefixes("i/x", "w/x", true)).toEqual({ oldName: "x", newName: "x" });
    expect(stripGitPrefixes("i/x", "w/x", false)).toEqual({ oldName: "i/x", newName: "w/x" });
  });
});
