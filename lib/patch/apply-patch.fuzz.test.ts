/**
 * Hostile input never throws and never changes a file: random bytes, mangled real patches and
 * patch-shaped noise. With apply-patch.property.test.ts these make 10,000 cases.
 */
import { createTwoFilesPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import { patchErrorDescriptions } from "./error-codes";
import type { PatchResult } from "./patch-result";

const workspace = () =>
  new Map([
    ["file.txt", "alpha\nbeta\ngamma\n"],
    ["src/app.ts", "export const a = 1;\nexport const b = 2;\n"],
  ]);
const snapshot = JSON.stringify([...workspace()]);

function expectWellFormed(result: PatchResult, files: Map<string, string>): void {
  expect(JSON.stringify([...files])).toBe(snapshot);
  if (result.ok) {
    for (const path of result.updates.keys()) expect(typeof path).toBe("string");
    return;
  }
  expect(Object.keys(patchErrorDescriptions)).toContain(result.code);
  expect(result.summary).toMatch(/nothing was changed/);
  for (const failure of result.failures)
    expect(Object.keys(patchErrorDescriptions)).toContain(failure.code);
}

describe("hostile patches", () => {
  it("random bytes never throw and never change a file (700 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.constantFrom("utf-8", "latin1"),
        (bytes, encoding) => {
          const files = workspace();
          const result = applyPatch({ files, patch: new TextDecoder(encoding).decode(bytes) });
          expect(result.ok).toBe(false);
          expectWellFormed(result, files);
        },
      ),
      { numRuns: 700 },
    );
  });

  const realPatch = createTwoFilesPatch(
    "file.txt",
    "file.txt",
    "alpha\nbeta\ngamma\n",
    "alpha\nBETA\ngamma\ndelta\n",
  );
  const realLines = realPatch.split("\n");

  it("mangled real patches never throw and touch only files they name (400 cases)", () => {
    const mutation = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom("drop", "duplicate", "flip", "insert"),
      text: fc.string({ maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const lines = [...realLines];
        for (const { at, kind, text } of mutations) {
          const index = at % Math.max(1, lines.length);
          if (kind === "drop") lines.splice(index, 1);
          else if (kind === "duplicate") lines.splice(index, 0, lines[index] ?? "");
          else if (kind === "flip")
            lines[index] = `${text}${(lines[index] ?? "").slice(text.length)}`;
          else lines.splice(index, 0, text);
        }
        const files = workspace();
        const patch = lines.join("\n");
        const result = applyPatch({ files, patch });
        expectWellFormed(result, files);
        // Whatever applied touched only files the patch names.
        const touched = result.ok ? [...result.updates.keys()] : [];
        expect(touched.filter((path) => !patch.includes(path))).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it("patch-shaped noise never throws (400 cases)", () => {
    const fragment = fc.constantFrom(
      "*** Begin Patch",
      "*** End Patch",
      "*** Update File: file.txt",
      "*** Add File: new.txt",
      "*** Delete File: src/app.ts",
      "*** Move to: moved.txt",
      "*** End of File",
      "diff --git a/file.txt b/file.txt",
      "--- a/file.txt",
      "+++ b/file.txt",
      "--- /dev/null",
      "+++ /dev/null",
      "@@ -1,3 +1,3 @@",
      "@@ -0,0 +1 @@",
      "@@",
      "@@ beta",
      " alpha",
      "-beta",
      "+BETA",
      "\\ No newline at end of file",
      "rename from file.txt",
      "rename to ../escape.txt",
      "```diff",
      "```",
      "",
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 14 }), (parts) => {
        const files = workspace();
        expectWellFormed(applyPatch({ files, patch: parts.join("\n") }), files);
      }),
      { numRuns: 400 },
    );
  });
});
