import type { LineIndex } from "./line-index";
import { normalizeLine } from "./line-tolerance";

/** Where a file looks most like the lines a hunk expected, and how much (0..1). */
export interface NearestMatch {
  start: number;
  similarity: number;
}

const substance = /[\p{L}\p{N}]/u;
const maximumVotesPerLine = 400;
const consideredStarts = 6;
const resemblanceThreshold = 0.3;

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index < text.length - 1; index += 1) {
    const pair = text.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** How alike two lines are: 1 when equal ignoring whitespace and look-alikes, else the bigram Dice score. */
export function lineSimilarity(left: string, right: string): number {
  const a = normalizeLine(left, "unicode-lookalike");
  const b = normalizeLine(right, "unicode-lookalike");
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const leftPairs = bigrams(a);
  let shared = 0;
  for (const [pair, count] of bigrams(b)) shared += Math.min(count, leftPairs.get(pair) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

function similarityAt(index: LineIndex, expected: readonly string[], start: number): number {
  let total = 0;
  for (let offset = 0; offset < expected.length; offset += 1) {
    const line = index.lines[start + offset];
    if (line !== undefined) total += lineSimilarity(expected[offset], line);
  }
  return total / expected.length;
}

/**
 * Finds the block of the file most like `expected`, for a failed hunk's report: lines that match
 * exactly vote for where the block would start, and the best-voted starts (and `hint`, where the
 * hunk was expected) are scored line by line. Returns null when nothing resembles the hunk.
 */
export function findNearestMatch(
  index: LineIndex,
  expected: readonly string[],
  hint: number,
): NearestMatch | null {
  if (expected.length === 0 || index.length === 0) return null;
  const votes = new Map<number, number>();
  expected.forEach((line, offset) => {
    const key = normalizeLine(line, "unicode-lookalike");
    if (!substance.test(key)) return;
    const positions = index.positions("unicode-lookalike", key);
    for (const position of positions.slice(0, maximumVotesPerLine)) {
      const start = position - offset;
      votes.set(start, (votes.get(start) ?? 0) + 1);
    }
  });
  const clampedHint = Math.min(Math.max(0, hint), index.length - 1);
  const starts = [...votes.entries()]
    .sort(
      (left, right) =>
        right[1] - left[1] || Math.abs(left[0] - clampedHint) - Math.abs(right[0] - clampedHint),
    )
    .slice(0, consideredStarts)
    .map(([start]) => start);
  starts.push(clampedHint);
  let best: NearestMatch | null = null;
  for (const start of starts) {
    const clamped = Math.min(Math.max(0, start), index.length - 1);
    const similarity = similarityAt(index, expected, clamped);
    if (!best || similarity > best.similarity) best = { start: clamped, similarity };
  }
  if (!best || best.similarity < resemblanceThreshold) return null;
  return { start: best.start, similarity: Math.round(best.similarity * 100) / 100 };
}
