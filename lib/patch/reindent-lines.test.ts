import { describe, expect, it } from "vitest";
import { inferReindent } from "./reindent-lines";

describe("inferReindent", () => {
  it("returns null when the indentation already agrees", () => {
    expect(inferReindent([["  a", "  a"]], ["  b"], () => [])).toBeNull();
  });

  it("adds the prefix a model lost", () => {
    const reindent = inferReindent(
      [
        ["if (x) {", "    if (x) {"],
        ["  y();", "      y();"],
      ],
      ["  z();"],
      () => [],
    );
    expect(reindent?.("  z();")).toBe("      z();");
    expect(reindent?.("")).toBe("");
  });

  it("removes a prefix the patch doubled", () => {
    const reindent = inferReindent([["\t\ta", "\ta"]], ["\t\tb", "\t\t\tc"], () => []);
    expect(reindent?.("\t\tb")).toBe("\tb");
    expect(reindent?.("\t\t\tc")).toBe("\t\tc");
  });

  it("converts two-space nesting to the file's tabs, keeping doc-comment spaces", () => {
    const pairs: [string, string][] = [
      ["  function a() {", "\tfunction a() {"],
      ["    return 1;", "\t\treturn 1;"],
      ["   * doc", "\t * doc"],
    ];
    const reindent = inferReindent(pairs, ["    const b = 2;", "   * more"], () => []);
    expect(reindent?.("    const b = 2;")).toBe("\t\tconst b = 2;");
    expect(reindent?.("   * more")).toBe("\t * more");
  });

  it("converts tabs to the file's four spaces with a level shift", () => {
    const reindent = inferReindent(
      [
        ["\treturn;", "        return;"],
        ["}", "    }"],
      ],
      ["\tnext();"],
      () => [],
    );
    expect(reindent?.("\tnext();")).toBe("        next();");
  });

  it("learns the file's unit from the whole file when the matched lines are flush left", () => {
    const reindent = inferReindent([["\ta", "a"]], ["\t\tb"], () => ["  ", "    "]);
    expect(reindent?.("\t\tb")).toBe("  b");
  });

  it("reads a doc comment's odd indentation in the unit the rest of the file uses", () => {
    const pairs: [string, string][] = [
      ["     * @param x", "\t * @param x"],
      ["     */", "\t */"],
    ];
    const reindent = inferReindent(pairs, ["     * @returns y"], () => [
      "    ",
      "        ",
      "     ",
    ]);
    expect(reindent?.("     * @returns y")).toBe("\t * @returns y");
  });

  it("tries the file's own unit when the patch's leads suggest a narrower one", () => {
    const pairs: [string, string][] = [
      ["        const text = `", "\t\tconst text = `"],
      ["          let flag = false;", "\t\t  let flag = false;"],
      ["            push(item);", "\t\t\tpush(item);"],
    ];
    const reindent = inferReindent(pairs, ["          for (;;) {"], () => [
      "    ",
      "        ",
      "            ",
    ]);
    expect(reindent?.("          for (;;) {")).toBe("\t\t  for (;;) {");
  });

  it("gives up when the lines follow no single rule", () => {
    expect(
      inferReindent(
        [
          ["  a", "\ta"],
          ["  b", "        b"],
        ],
        ["  c"],
        () => [],
      ),
    ).toBeNull();
  });

  it("converts to tabs when half the matched lines are tab-indented and the rest doc-comment spaces", () => {
    // A doc comment keeps its three spaces in a tab-indented file; the code under it uses tabs.
    const pairs: [string, string][] = [
      ["   * an error.", "   * an error."],
      ["   */ run(params) {", "   */ run(params) {"],
      ["        if (!manifest) {", "\t\tif (!manifest) {"],
      ["            return null;", "\t\t\treturn null;"],
    ];
    const reindent = inferReindent(pairs, ["        const next = 1;"], () => [
      "    a",
      "    b",
      "    c",
    ]);
    expect(reindent?.("        const next = 1;")).toBe("\t\tconst next = 1;");
    expect(reindent?.("   trace();")).toBe("   trace();");
  });
});
