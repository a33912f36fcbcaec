import { describe, expect, it } from "vitest";
import { LineIndex } from "./line-index";
import { locateHunk } from "./locate-hunk";
import { emptyHunk, type Hunk, type HunkLine } from "./patch-model";

/** A hunk from diff-style lines: " ctx", "-del", "+add". */
function hunk(lines: string[], overrides: Partial<Hunk> = {}): Hunk {
  const parsed: HunkLine[] = lines.map((line) => ({
    kind: line[0] === "-" ? "delete" : line[0] === "+" ? "add" : "context",
    text: line.slice(1),
    carriageReturn: false,
  }));
  return { ...emptyHunk(1), lines: parsed, ...overrides };
}

const file = (lines: string[]) => new LineIndex(lines);
const place = (
  index: LineIndex,
  target: Hunk,
  from = 0,
  offset = 0,
  until = index.length,
  agreed = true,
) => {
  const outcome = locateHunk(index, target, { from, until }, { lines: offset, agreed });
  return outcome.ok
    ? { start: outcome.placement.start, tolerance: outcome.placement.tolerance }
    : { code: outcome.code, candidates: outcome.candidates };
};

describe("locateHunk", () => {
  const text = file([
    "import a;",
    "",
    "function one() {",
    "  return 1;",
    "}",
    "",
    "function two() {",
    "  return 2;",
    "}",
  ]);

  it("places a hunk exactly where a trusted header says", () => {
    expect(
      place(
        text,
        hunk(["-  return 1;", "+  return 10;", " }"], { statedIndex: 3, headerTrusted: true }),
      ),
    ).toEqual({ start: 3, tolerance: "exact" });
  });

  it("finds an exact match elsewhere and calls it an offset", () => {
    expect(
      place(text, hunk(["-  return 2;", " }"], { statedIndex: 1, headerTrusted: true })),
    ).toEqual({ start: 7, tolerance: "offset" });
    expect(place(text, hunk(["-  return 2;", " }"]))).toEqual({ start: 7, tolerance: "exact" });
  });

  it.each([
    ["trailing whitespace", ["   return 1;  ", " }\t"], "trailing-whitespace"],
    ["indentation", [" \treturn 1;", "   }"], "surrounding-whitespace"],
    ["Unicode look-alikes", [" function\u00a0one() {", " \u2003 return 1;"], "unicode-lookalike"],
  ])("matches despite %s, and says so", (_, lines, tolerance) => {
    expect(place(text, hunk([...lines, "+x"]))).toEqual({
      start: lines[0].includes("function") ? 2 : 3,
      tolerance,
    });
  });

  it("refuses a block that occurs twice, whatever the tolerance, naming both places", () => {
    expect(place(text, hunk([" }", "+// gap"]))).toEqual({
      code: "PATCH_AMBIGUOUS_MATCH",
      candidates: [4, 8],
    });
    const twice = file(["a", "b", "c", "a", "b", "c"]);
    expect(place(twice, hunk([" a", "-b", "+B"]))).toEqual({
      code: "PATCH_AMBIGUOUS_MATCH",
      candidates: [0, 3],
    });
    expect(place(twice, hunk([" a ", "-b", "+B"]))).toEqual({
      code: "PATCH_AMBIGUOUS_MATCH",
      candidates: [0, 3],
    });
  });

  it("lets a trusted header pick between equal matches, moved as its neighbours measured, but not an untrusted one", () => {
    const twice = file(["a", "b", "c", "a", "b", "c"]);
    const trusted = { statedIndex: 3, headerTrusted: true };
    expect(place(twice, hunk([" a", "-b", "+B"], trusted))).toEqual({
      start: 3,
      tolerance: "exact",
    });
    expect(
      place(twice, hunk([" a", "-b", "+B"], { statedIndex: 3, headerTrusted: false })),
    ).toMatchObject({ code: "PATCH_AMBIGUOUS_MATCH" });
    expect(
      place(twice, hunk([" a", "-b", "+B"], { statedIndex: 0, headerTrusted: true }), 0, 3),
    ).toEqual({
      start: 3,
      tolerance: "exact",
    });
    expect(
      place(
        twice,
        hunk([" a", "-b", "+B"], { statedIndex: 0, headerTrusted: true }),
        0,
        3,
        6,
        false,
      ),
    ).toMatchObject({
      code: "PATCH_AMBIGUOUS_MATCH",
    });
    expect(place(twice, hunk([" a", "-b", "+B"], trusted), 0, 2)).toMatchObject({
      code: "PATCH_AMBIGUOUS_MATCH",
    });
    expect(place(twice, hunk([" a ", "-b", "+B"], trusted))).toEqual({
      start: 3,
      tolerance: "trailing-whitespace",
    });
    expect(place(twice, hunk([" a ", "-b", "+B"], { statedIndex: 3 }))).toMatchObject({
      code: "PATCH_AMBIGUOUS_MATCH",
    });
  });

  it("searches only before the next hunk when it is known", () => {
    const twice = file(["a", "b", "c", "a", "b", "c"]);
    expect(place(twice, hunk([" a", "-b"]), 0, 0, 3)).toEqual({ start: 0, tolerance: "exact" });
  });

  it("refuses a match elsewhere when the header's line holds nearly the same lines", () => {
    const block = [
      "function save(user) {",
      "  validate(user);",
      "  store.put(user);",
      "  notify(user);",
      "}",
    ];
    const changed = block.map((line) => line.replace("store.put", "store.putChanged"));
    const filler = Array.from({ length: 10 }, (_, line) => `filler ${line}`);
    const twice = file([...changed, ...filler, ...block]);
    const stale = hunk(
      [
        " function save(user) {",
        "   validate(user);",
        "-  store.put(user);",
        "+  store.put(user, true);",
        "   notify(user);",
      ],
      {
        statedIndex: 0,
        headerTrusted: true,
      },
    );
    expect(place(twice, stale)).toEqual({ code: "PATCH_AMBIGUOUS_MATCH", candidates: [15, 0] });
    expect(place(twice, { ...stale, statedIndex: null })).toEqual({
      start: 15,
      tolerance: "exact",
    });
    const shifted = file([...filler, ...block]);
    expect(place(shifted, stale)).toEqual({ start: 10, tolerance: "offset" });
  });

  it("lets a claim of the file's end pick the last of equal matches", () => {
    const twice = file(["a", "b", "a", "b"]);
    expect(place(twice, hunk([" a", "-b"], { endOfFile: true }))).toEqual({
      start: 2,
      tolerance: "exact",
    });
    expect(place(twice, hunk([" a", "-b"], { oldEndsWithoutNewline: true }))).toEqual({
      start: 2,
      tolerance: "exact",
    });
  });

  it("searches only after the previous hunk", () => {
    const twice = file(["a", "b", "c", "a", "b", "c"]);
    expect(place(twice, hunk([" a", "-b"]), 2)).toEqual({ start: 3, tolerance: "exact" });
    expect(place(twice, hunk([" a", "-b"]), 4)).toMatchObject({ code: "PATCH_CONTEXT_NOT_FOUND" });
  });

  it("does not take another alignment of the same edit near the header's line for a rival", () => {
    const block = ["alpha one", "beta two", "gamma three", "delta four", "epsilon five"];
    const filler = Array.from({ length: 6 }, (_, line) => `filler ${line}`);
    const moved = file([...filler, ...block, ...filler]);
    const target = hunk(
      [" alpha one", " beta two", "-gamma three", "+GAMMA", " delta four", " epsilon five"],
      {
        statedIndex: 10,
        headerTrusted: true,
      },
    );
    expect(place(moved, target)).toEqual({ start: 6, tolerance: "offset" });
  });

  it("narrows the search with anchors, exact or shortened, and fails on a missing one", () => {
    expect(place(text, hunk(["-}", "+};"], { anchors: ["function two() {"] }))).toEqual({
      start: 8,
      tolerance: "exact",
    });
    expect(place(text, hunk(["-}", "+};"], { anchors: ["function two"] }))).toEqual({
      start: 8,
      tolerance: "exact",
    });
    expect(place(text, hunk(["-}", "+};"], { anchors: ["function three"] }))).toMatchObject({
      code: "PATCH_CONTEXT_NOT_FOUND",
    });
  });

  it("places only-added lines in an empty file or at a stated end, and refuses them anywhere else", () => {
    expect(place(file([]), hunk(["+first"]))).toEqual({ start: 0, tolerance: "exact" });
    expect(place(text, hunk(["+last"], { endOfFile: true }))).toEqual({
      start: 9,
      tolerance: "exact",
    });
    expect(place(text, hunk(["+lost"], { statedIndex: 2, headerTrusted: true }))).toMatchObject({
      code: "PATCH_AMBIGUOUS_MATCH",
      candidates: [],
    });
    expect(place(text, hunk(["+lost"], { anchors: ["function two() {"] }))).toMatchObject({
      code: "PATCH_AMBIGUOUS_MATCH",
    });
  });

  it("falls back to a placement with a missing context line, and reports a stale hunk as not found", () => {
    const shifted = hunk([
      " function two() {",
      " // a comment the file lacks",
      "-  return 2;",
      "+  return 3;",
      " }",
    ]);
    expect(place(text, shifted)).toEqual({ start: 6, tolerance: "missing-context" });
    expect(
      place(text, hunk([" function two() {", "-  return 22;", "+  return 3;", " }"])),
    ).toMatchObject({ code: "PATCH_CONTEXT_NOT_FOUND" });
  });
});
