import { describe, expect, it } from "vitest";
import { applyHunks } from "./apply-hunks";
import { emptyHunk, type Hunk } from "./patch-model";

/** A hunk from diff-style lines; "\r" at a line's end is kept as the patch's own ending. */
function hunk(lines: string[], overrides: Partial<Hunk> = {}): Hunk {
  return {
    ...emptyHunk(1),
    lines: lines.map((line) => ({
      kind: line[0] === "-" ? "delete" : line[0] === "+" ? "add" : "context",
      text: line.slice(1).replace(/\r$/, ""),
      carriageReturn: line.endsWith("\r"),
    })),
    ...overrides,
  };
}

const lf = { carriesLineEndings: false };
const applied = (text: string, hunks: Hunk[], options = lf) => {
  const outcome = applyHunks(text, hunks, options);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failures));
  return outcome;
};

describe("applyHunks", () => {
  it("applies hunks in order, keeping untouched lines", () => {
    const outcome = applied("a\nb\nc\nd\ne\n", [
      hunk([" a", "-b", "+B"]),
      hunk([" d", "+d2", " e"]),
    ]);
    expect(outcome.text).toBe("a\nB\nc\nd\nd2\ne\n");
    expect([outcome.additions, outcome.deletions]).toEqual([2, 1]);
    expect(outcome.placed.map((placed) => [placed.resultStart, placed.resultLength])).toEqual([
      [0, 2],
      [3, 3],
    ]);
  });

  it("keeps a CRLF file CRLF when an LF patch edits it", () => {
    expect(applied("a\r\nb\r\nc\r\n", [hunk([" a", "-b", "+B", "+B2"])]).text).toBe(
      "a\r\nB\r\nB2\r\nc\r\n",
    );
  });

  it("writes added lines with the patch's own endings when it carries them", () => {
    const outcome = applied("a\r\nb\nc\r\n", [hunk([" a\r", "-b", "+B\r", "+B2"])], {
      carriesLineEndings: true,
    });
    expect(outcome.text).toBe("a\r\nB\r\nB2\nc\r\n");
  });

  it.each([
    [
      "adds the final newline when the patch's last line has one",
      "a\nb",
      [" a", "-b", "+c"],
      {},
      "a\nc\n",
    ],
    [
      "removes it when the patch says so",
      "a\nb\n",
      [" a", "-b", "+c"],
      { newEndsWithoutNewline: true },
      "a\nc",
    ],
    [
      "keeps a missing one where no hunk reaches the end",
      "a\nb\nc",
      [" a", "-b", "+B"],
      {},
      "a\nB\nc",
    ],
    [
      "gives a line that stopped being last an ending",
      "a",
      [" a", "+b"],
      { newEndsWithoutNewline: true },
      "a\nb",
    ],
    [
      "ends a CRLF file with CRLF when it adds the newline",
      "a\r\nb",
      [" a", "-b", "+c"],
      {},
      "a\r\nc\r\n",
    ],
    [
      "leaves the line before a deleted tail alone",
      "a\nb\nc",
      [" a", "-b", "-c"],
      { oldEndsWithoutNewline: true },
      "a\n",
    ],
    ["empties a file", "a\nb\n", ["-a", "-b"], {}, ""],
  ])("%s", (_, text, lines, overrides, expected) => {
    expect(applied(text, [hunk(lines, overrides)]).text).toBe(expected);
  });

  it("keeps a byte-order mark when line 1 is replaced", () => {
    expect(applied("\uFEFFa\nb\n", [hunk(["-a", "+A", " b"])]).text).toBe("\uFEFFA\nb\n");
  });

  it("keeps the file's own context lines when whitespace was forgiven", () => {
    expect(
      applied("if (x) {  \n  go();\n}\n", [hunk([" if (x) {", "-  go();", "+  stop();", " }"])])
        .text,
    ).toBe("if (x) {  \n  stop();\n}\n");
  });

  it("writes added lines in the file's indentation when the match ignored it", () => {
    const file = "class A {\n\tmethod() {\n\t\treturn 1;\n\t}\n}\n";
    const patch = hunk([
      "   method() {",
      "-    return 1;",
      "+    const value = 2;",
      "+    return value;",
      "   }",
    ]);
    const outcome = applied(file, [patch]);
    expect(outcome.text).toBe(
      "class A {\n\tmethod() {\n\t\tconst value = 2;\n\t\treturn value;\n\t}\n}\n",
    );
    expect(outcome.placed[0].tolerance).toBe("surrounding-whitespace");
  });

  it("keeps a line the file has between context lines the patch thought adjacent", () => {
    const file = "one\ntwo\nthree\nfour\nfive\n";
    expect(applied(file, [hunk([" one", " two", " four", "-five", "+5"])]).text).toBe(
      "one\ntwo\nthree\nfour\n5\n",
    );
  });

  it("places an ambiguous hunk before the next hunk, since hunks apply in order", () => {
    const file = "x\ny\nmark\nx\ny\n";
    const outcome = applyHunks(file, [hunk([" x", "-y", "+Y"]), hunk([" mark", "+after"])], lf);
    expect(outcome.ok && outcome.text).toBe("x\nY\nmark\nafter\nx\ny\n");
  });

  it("trusts a header's line moved by the offset the neighbouring hunks agree on", () => {
    const base = ["one", "two", "dup", "dup2", "three", "four", "dup", "dup2", "five"];
    const moved = `added\nadded\n${base.join("\n")}\n`;
    const first = hunk([" one", "-two", "+TWO"], { statedIndex: 0, headerTrusted: true });
    const second = hunk([" dup", "-dup2", "+DUP2"], { statedIndex: 6, headerTrusted: true });
    const outcome = applyHunks(moved, [first, second], lf);
    expect(outcome.ok && outcome.text).toBe(
      "added\nadded\none\nTWO\ndup\ndup2\nthree\nfour\ndup\nDUP2\nfive\n",
    );
    const untrusted = applyHunks(moved, [first, { ...second, headerTrusted: false }], lf);
    expect(untrusted.ok).toBe(false);
  });

  it("reports every hunk that cannot be placed, changing nothing", () => {
    const outcome = applyHunks(
      "a\nb\nc\n",
      [hunk([" a", "-x"]), hunk([" b", "-c", "+C"]), hunk(["-zzz"])],
      lf,
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.failures.map((failure) => [failure.hunkIndex, failure.code])).toEqual([
        [0, "PATCH_CONTEXT_NOT_FOUND"],
        [2, "PATCH_CONTEXT_NOT_FOUND"],
      ]);
  });

  it("creates a file from only-added lines, ending it with a newline unless told otherwise", () => {
    expect(applied("", [hunk(["+a", "+b"])]).text).toBe("a\nb\n");
    expect(applied("", [hunk(["+a"], { newEndsWithoutNewline: true })]).text).toBe("a");
  });
});
