import { describe, expect, it } from "vitest";
import { isElisionMarker, lazyRewriteProblem } from "./elision-marker";
import { apply, beginPatch } from "./test-workspace";

describe("isElisionMarker", () => {
  it.each([
    "// ... existing code ...",
    "    // ...existing code...",
    "/* ... */",
    "{/* ... */}",
    "  {/* ... rest of the component ... */}",
    "# ...",
    "...",
    "…",
    "<!-- ... -->",
    "// … keep the rest unchanged",
    "// rest of the file unchanged ...",
  ])("knows %j stands for code left out", (line) => {
    expect(isElisionMarker(line)).toBe(true);
  });

  it.each([
    "const rest = [...items];",
    "// TODO: handle errors...",
    "return <p>Loading...</p>;",
    "// load the user's settings before rendering",
    "console.log('...');",
    "",
  ])("takes %j as real code", (line) => {
    expect(isElisionMarker(line)).toBe(false);
  });
});

const counter = [
  "export function Counter() {",
  "  const [count, setCount] = useState(0);",
  "  const double = count * 2;",
  "  return <p>{double}</p>;",
  "}",
  "",
].join("\n");

describe("lazy placeholders are never applied", () => {
  it("refuses a unified hunk that swaps removed lines for '... existing code ...'", () => {
    const patch = [
      "--- a/Counter.tsx",
      "+++ b/Counter.tsx",
      "@@ -1,4 +1,3 @@",
      " export function Counter() {",
      "-  const [count, setCount] = useState(0);",
      "-  const double = count * 2;",
      "+  // ... existing code ...",
      "   return <p>{double}</p>;",
      "",
    ].join("\n");
    const result = apply(patch, { "Counter.tsx": counter });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("PATCH_LAZY_PLACEHOLDER");
    expect(result.failures[0].message).toContain("const double = count * 2;");
  });

  it("refuses the same in a Begin Patch hunk", () => {
    const patch = beginPatch(
      "*** Update File: Counter.tsx",
      "@@",
      " export function Counter() {",
      "-  const [count, setCount] = useState(0);",
      "+  {/* ... */}",
    );
    const result = apply(patch, { "Counter.tsx": counter });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("PATCH_LAZY_PLACEHOLDER");
  });

  it("still applies a hunk that only adds a comment with an ellipsis, removing nothing", () => {
    const patch = [
      "--- a/Counter.tsx",
      "+++ b/Counter.tsx",
      "@@ -1,2 +1,3 @@",
      " export function Counter() {",
      "+  // TODO: handle errors...",
      "   const [count, setCount] = useState(0);",
      "",
    ].join("\n");
    expect(apply(patch, { "Counter.tsx": counter }).ok).toBe(true);
  });
});

describe("lazyRewriteProblem", () => {
  it("refuses new content that replaces most of a file with a placeholder", () => {
    const after = "export function Counter() {\n  // ... existing code ...\n}\n";
    expect(lazyRewriteProblem(counter, after)).toMatch(/would delete that code/);
  });

  it("accepts a whole new file, and a longer one that happens to hold an ellipsis comment", () => {
    expect(lazyRewriteProblem(counter, counter.replace("* 2", "* 3"))).toBeNull();
    expect(lazyRewriteProblem(counter, `${counter}// ...\nexport const x = 1;\n`)).toBeNull();
  });
});
