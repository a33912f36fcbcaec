import type { Hunk } from "./patch-model";

// Comment syntax around a marker: //, /* */, {/* */}, #, <!-- -->, and JSX braces.
const commentSyntax = /^(?:\{\s*)?(?:\/\/+|\/\*+|#+|<!--|--)?\s*|\s*(?:\*+\/|-->)?(?:\s*\})?$/g;
const ellipsis = /\.{3,}|…/;
// Words models put around an ellipsis to mean "the rest stays as it is".
const fillerWords = new Set(
  (
    "existing code rest of the file unchanged remains remaining same as before other previous " +
    "omitted for brevity keep kept here etc more imports functions methods props content lines " +
    "stays stay component logic styles is are and original implementation body"
  ).split(" "),
);

/**
 * True for a line that stands for code left out — `// ... existing code ...`, `/* ... *\/`,
 * `{/* ... *\/}`, `# ...`, `...`, `…`, `// rest of the file unchanged ...` — at any indentation:
 * an ellipsis, inside comment syntax or alone, with at most a few filler words around it.
 */
export function isElisionMarker(line: string): boolean {
  const inner = line.trim().replace(commentSyntax, "").trim();
  if (!ellipsis.test(inner)) return false;
  const words = inner
    .replace(/\.{3,}|…/g, " ")
    .replace(/[()[\],:;-]/g, " ")
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  return words.length <= 8 && words.every((word) => fillerWords.has(word));
}

/**
 * A "lazy" hunk: it removes real lines and adds an elision marker in their place. The model
 * meant "keep the rest"; applying it would delete that code. Returns why, naming the lines, or
 * null for an ordinary hunk.
 */
export function lazyPlaceholderProblem(hunk: Hunk): string | null {
  const marker = hunk.lines.find((line) => line.kind === "add" && isElisionMarker(line.text));
  if (!marker) return null;
  const removed = hunk.lines.filter(
    (line) => line.kind === "delete" && line.text.trim() !== "" && !isElisionMarker(line.text),
  );
  if (removed.length === 0) return null;
  const shown = removed
    .slice(0, 3)
    .map((line) => JSON.stringify(line.text.trim()))
    .join(", ");
  return `the hunk removes ${removed.length} line${removed.length === 1 ? "" : "s"} (${shown}${removed.length > 3 ? ", …" : ""}) and adds ${JSON.stringify(marker.text.trim())} in their place, which would delete that code; write out the lines you keep as context lines instead of a placeholder`;
}

/**
 * New content for an existing file that leans on a placeholder: it holds an elision marker and
 * fewer lines of code than the file had, so writing it would drop what the marker stands for.
 */
export function lazyRewriteProblem(before: string, after: string): string | null {
  const afterLines = after.split("\n");
  const marker = afterLines.find((line) => isElisionMarker(line));
  if (!marker) return null;
  const codeLines = (text: string) =>
    text.split("\n").filter((line) => line.trim() !== "" && !isElisionMarker(line)).length;
  if (codeLines(after) >= codeLines(before)) return null;
  return `the new content stands ${JSON.stringify(marker.trim())} for code the file has (${codeLines(before)} lines of code become ${codeLines(after)}); writing it would delete that code, so send the whole file or a patch`;
}
