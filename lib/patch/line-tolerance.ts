/**
 * The comparisons a hunk's lines are matched with, strictest first. Each later one forgives
 * more, so a hunk is placed with the strictest comparison under which it matches at all.
 */
export type LineComparison =
  | "exact"
  | "trailing-whitespace"
  | "surrounding-whitespace"
  | "unicode-lookalike";

export const lineComparisons: readonly LineComparison[] = [
  "exact",
  "trailing-whitespace",
  "surrounding-whitespace",
  "unicode-lookalike",
];

// What models and word processors substitute for ASCII: curly quotes, primes, dashes, minus,
// the ellipsis, non-breaking and other typographic spaces, and zero-width characters.
const lookalikeReplacements: [RegExp, string][] = [
  [/[\u2018\u2019\u201a\u201b\u2032\u2035]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033\u2036]/g, '"'],
  [/[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g, "-"],
  [/\u2026/g, "..."],
  [/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g, " "],
  [/[\u200b-\u200d\u2060\ufeff]/g, ""],
];

function isAscii(line: string): boolean {
  for (let index = 0; index < line.length; index += 1)
    if (line.charCodeAt(index) > 0x7f) return false;
  return true;
}

/** Replaces typographic look-alikes with the ASCII a programmer meant, and composes accents. */
export function foldLookalikes(line: string): string {
  if (isAscii(line)) return line;
  let folded = line.normalize("NFC");
  for (const [pattern, replacement] of lookalikeReplacements)
    folded = folded.replace(pattern, replacement);
  return folded;
}

/** The key two lines must share to be equal under a comparison. */
export function normalizeLine(line: string, comparison: LineComparison): string {
  switch (comparison) {
    case "exact":
      return line;
    case "trailing-whitespace":
      return line.trimEnd();
    case "surrounding-whitespace":
      return line.trim();
    case "unicode-lookalike":
      return foldLookalikes(line).trim();
  }
}

/** True when a comparison ignores leading whitespace, so added lines may need re-indenting. */
export function ignoresIndentation(comparison: LineComparison): boolean {
  return comparison === "surrounding-whitespace" || comparison === "unicode-lookalike";
}
