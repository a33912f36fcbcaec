import type { RefreshWindow } from "./patch-result";

/** A span of a file the model should re-read: 0-based start, exclusive end. */
export interface WindowRequest {
  path: string;
  lines: readonly string[];
  start: number;
  end: number;
}

/** Lines of context shown around the place a hunk failed. */
export const windowMargin = 6;
const maximumWindowLines = 120;
const maximumWindows = 12;

/** The request for the lines around a block, with a margin on both sides. */
export function windowAround(
  path: string,
  lines: readonly string[],
  start: number,
  length: number,
): WindowRequest {
  return {
    path,
    lines,
    start: start - windowMargin,
    end: start + Math.max(length, 1) + windowMargin,
  };
}

/** "<number> | <text>" lines, numbers right-aligned so the text columns line up. */
export function numberLines(lines: readonly string[], start: number, end: number): string {
  const width = String(end).length;
  const numbered: string[] = [];
  for (let index = start; index < end; index += 1)
    numbered.push(`${String(index + 1).padStart(width)} | ${lines[index]}`);
  return numbered.join("\n");
}

/**
 * Turns requests into refresh windows: clipped to the file, overlapping or touching spans of one
 * file merged, each at most 120 lines, at most 12 windows — enough to re-read, not a whole file.
 */
export function buildRefreshWindows(requests: readonly WindowRequest[]): RefreshWindow[] {
  const byPath = new Map<string, { lines: readonly string[]; spans: [number, number][] }>();
  for (const request of requests) {
    const start = Math.max(0, request.start);
    const end = Math.min(request.lines.length, request.end);
    if (end <= start) continue;
    const entry = byPath.get(request.path) ?? { lines: request.lines, spans: [] };
    entry.spans.push([start, end]);
    byPath.set(request.path, entry);
  }
  const windows: RefreshWindow[] = [];
  for (const [path, { lines, spans }] of byPath) {
    spans.sort((left, right) => left[0] - right[0]);
    const merged: [number, number][] = [];
    for (const span of spans) {
      const previous = merged.at(-1);
      if (previous && span[0] <= previous[1]) previous[1] = Math.max(previous[1], span[1]);
      else merged.push([span[0], span[1]]);
    }
    for (const [start, spanEnd] of merged) {
      const end = Math.min(spanEnd, start + maximumWindowLines);
      windows.push({
        path,
        start_line: start + 1,
        end_line: end,
        content: numberLines(lines, start, end),
      });
    }
  }
  return windows.slice(0, maximumWindows);
}
