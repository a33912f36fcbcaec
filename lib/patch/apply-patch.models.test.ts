/**
 * Patches the way chat models actually write them: fenced, wrapped in prose, with wrong or
 * missing hunk counts, stripped blank context lines, lost indentation, shortened anchors.
 */
import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import type { PatchResult } from "./patch-result";

const app = [
  'import { useState } from "react";',
  "",
  "export function Counter() {",
  "  const [count, setCount] = useState(0);",
  "",
  "  return (",
  '    <button type="button" onClick={() => setCount(count + 1)}>',
  "      Clicked {count} times",
  "    </button>",
  "  );",
  "}",
  "",
].join("\n");

const files = new Map([["src/Counter.tsx", app]]);

function textOf(result: PatchResult): string | null | undefined {
  if (!result.ok) throw new Error(result.summary);
  return result.updates.get("src/Counter.tsx");
}

describe("patches as models write them", () => {
  it("applies a fenced diff with prose, wrong counts and a blank context line without its space", () => {
    const patch = [
      "Here's the change to add a reset button:",
      "",
      "```diff",
      "--- a/src/Counter.tsx",
      "+++ b/src/Counter.tsx",
      "@@ -4,7 +4,10 @@ export function Counter() {",
      "   const [count, setCount] = useState(0);",
      "",
      "   return (",
      '-    <button type="button" onClick={() => setCount(count + 1)}>',
      "+    <>",
      '+      <button type="button" onClick={() => setCount(count + 1)}>',
      "```",
      "",
      "This keeps the existing behaviour.",
    ].join("\n");
    expect(textOf(applyPatch({ files, patch }))).toContain(
      '    <>\n      <button type="button" onClick',
    );
  });

  it("applies hunks whose headers carry no numbers at all", () => {
    const patch =
      '--- src/Counter.tsx\n+++ src/Counter.tsx\n@@ ... @@\n-      Clicked {count} times\n+      Clicked {count} {count === 1 ? "time" : "times"}\n';
    expect(textOf(applyPatch({ files, patch }))).toContain(
      'Clicked {count} {count === 1 ? "time" : "times"}',
    );
  });

  it("re-indents lines a model wrote flush left when its context was flush left too", () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/Counter.tsx",
      "@@ export function Counter",
      " const [count, setCount] = useState(0);",
      "+const reset = () => setCount(0);",
      "",
      " return (",
      "*** End Patch",
    ].join("\n");
    expect(textOf(applyPatch({ files, patch }))).toContain(
      "  const [count, setCount] = useState(0);\n  const reset = () => setCount(0);\n\n  return (",
    );
  });

  it("takes curly quotes in context for the file's straight ones, writing added lines as sent", () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/Counter.tsx",
      "@@",
      " import { useState } from \u201creact\u201d;",
      '+import { useEffect } from "react";',
      "*** End Patch",
    ].join("\n");
    expect(textOf(applyPatch({ files, patch }))).toMatch(
      /^import \{ useState \} from "react";\nimport \{ useEffect \} from "react";\n/,
    );
  });

  it("reads a git header without --- / +++ lines", () => {
    const patch =
      "diff --git a/src/Counter.tsx b/src/Counter.tsx\n@@ -11 +11 @@\n-}\n+} // Counter\n";
    expect(textOf(applyPatch({ files, patch }))).toMatch(/\n\} \/\/ Counter\n$/);
  });

  it("places hunks listed out of file order, each where it alone fits", () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/Counter.tsx",
      "@@",
      "-      Clicked {count} times",
      "+      Clicked {count}",
      "@@",
      "-export function Counter() {",
      "+export default function Counter() {",
      "*** End Patch",
    ].join("\n");
    const result = applyPatch({ files, patch });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const text = result.updates.get("src/Counter.tsx") ?? "";
    expect(text).toContain("export default function Counter() {");
    expect(text).toContain("      Clicked {count}\n");
  });

  it("applies a hunk sent twice once, and refuses two different hunks for one place", () => {
    const once = ["@@", "-export function Counter() {", "+export default function Counter() {"];
    const twice = applyPatch({
      files,
      patch: [
        "*** Begin Patch",
        "*** Update File: src/Counter.tsx",
        ...once,
        ...once,
        "*** End Patch",
      ].join("\n"),
    });
    expect(twice.ok).toBe(true);
    if (!twice.ok) return;
    expect(
      twice.updates.get("src/Counter.tsx")?.match(/export default function Counter/g),
    ).toHaveLength(1);
    const rivals = applyPatch({
      files,
      patch: [
        "*** Begin Patch",
        "*** Update File: src/Counter.tsx",
        ...once,
        "@@",
        "-export function Counter() {",
        "+export function Clicker() {",
        "*** End Patch",
      ].join("\n"),
    });
    expect(rivals.ok).toBe(false);
  });

  describe("hunks whose context overlaps", () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
    const numbered = new Map([["numbers.txt", `${lines.join("\n")}\n`]]);
    const patchOf = (...hunks: string[][]) =>
      ["--- a/numbers.txt", "+++ b/numbers.txt", ...hunks.flat()].join("\n");
    // Each hunk written with three lines of context against the original file: the second's
    // leading context (lines 12-14) starts inside the first's trailing context (11-13).
    const first = [
      "@@ -7,7 +7,7 @@",
      ...[7, 8, 9].map((n) => ` line ${n}`),
      "-line 10",
      "+LINE TEN",
      ...[11, 12, 13].map((n) => ` line ${n}`),
    ];
    const second = [
      "@@ -12,7 +12,7 @@",
      ...[12, 13, 14].map((n) => ` line ${n}`),
      "-line 15",
      "+LINE FIFTEEN",
      ...[16, 17, 18].map((n) => ` line ${n}`),
    ];

    it("applies both when they share only unchanged lines, in either order", () => {
      const expected = lines
        .map((line) =>
          line === "line 10" ? "LINE TEN" : line === "line 15" ? "LINE FIFTEEN" : line,
        )
        .join("\n");
      for (const patch of [patchOf(first, second), patchOf(second, first)]) {
        const result = applyPatch({ files: numbered, patch });
        if (!result.ok) throw new Error(result.summary);
        expect(result.updates.get("numbers.txt")).toBe(`${expected}\n`);
      }
    });

    it("still refuses an overlap on a line one of them changes", () => {
      const rival = [
        "@@ -12,4 +12,4 @@",
        " line 12",
        "-line 13",
        "+LINE THIRTEEN",
        " line 14",
        " line 15",
      ];
      const result = applyPatch({ files: numbered, patch: patchOf(first, rival) });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.summary).toMatch(/also changes/);
    });
  });
});
