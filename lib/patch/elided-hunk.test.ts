import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";

const lines = [
  "import { useState } from 'react';",
  "",
  "export function Counter() {",
  "  const [count, setCount] = useState(0);",
  "  const double = count * 2;",
  "  const triple = count * 3;",
  "  return (",
  "    <div>",
  "      <p>{count}</p>",
  "      <button onClick={() => setCount(count + 1)}>Add</button>",
  "    </div>",
  "  );",
  "}",
  "",
];
const file = lines.join("\n");
const files = new Map([["src/Counter.tsx", file]]);
const header = "--- a/src/Counter.tsx\n+++ b/src/Counter.tsx\n@@ -3,10 +3,10 @@\n";

describe("elision markers inside a hunk", () => {
  it.each(["// ... existing code ...", "/* ... */", "...", "…", "    // ...existing code..."])(
    "keeps the lines %j stands for and applies the change around them",
    (marker) => {
      const patch = `${header} export function Counter() {\n   const [count, setCount] = useState(0);\n ${marker}\n     <div>\n-      <p>{count}</p>\n+      <p>Count: {count}</p>\n       <button onClick={() => setCount(count + 1)}>Add</button>\n`;
      const result = applyPatch({ files, patch });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.updates.get("src/Counter.tsx")).toBe(
        file.replace("<p>{count}</p>", "<p>Count: {count}</p>"),
      );
    },
  );

  it("refuses when a part around the marker is not in the file", () => {
    const patch = `${header} export function Missing() {\n // ...\n-      <p>{count}</p>\n+      <p>Count: {count}</p>\n`;
    const result = applyPatch({ files, patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("PATCH_CONTEXT_NOT_FOUND");
  });

  it("refuses when the parts fit the file in more than one way", () => {
    const twice = `${file}${file.replace("Counter", "Other")}`;
    const patch = `${header}   const [count, setCount] = useState(0);\n // ...\n-      <p>{count}</p>\n+      <p>Count: {count}</p>\n`;
    const result = applyPatch({ files: new Map([["src/Counter.tsx", twice]]), patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("PATCH_AMBIGUOUS_MATCH");
  });

  it("refuses parts out of order", () => {
    const patch = `${header}       <p>{count}</p>\n // ...\n-  const double = count * 2;\n+  const double = count + count;\n`;
    const result = applyPatch({ files, patch });
    expect(result.ok).toBe(false);
  });

  it("applies when only a part of plain context could sit in several places: the result is the same", () => {
    const patch = `${header} import { useState } from 'react';\n // ...\n-  const double = count * 2;\n+  const double = count + count;\n   const triple = count * 3;\n`;
    const twice = `${file}${file.replace("export function Counter", "export function Other").replace("const double = count * 2;", "const half = count / 2;")}`;
    const result = applyPatch({ files: new Map([["src/Counter.tsx", twice]]), patch });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("src/Counter.tsx")).toBe(
      twice.replace("const double = count * 2;", "const double = count + count;"),
    );
  });

  it("refuses added lines right after a marker: where in the left-out code they go is unclear", () => {
    const patch = `${header} export function Counter() {\n // ... existing code ...\n+  const quadruple = count * 4;\n     <div>\n`;
    const result = applyPatch({ files, patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("PATCH_AMBIGUOUS_MATCH");
  });
});
