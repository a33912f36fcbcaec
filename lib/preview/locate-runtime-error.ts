import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";

/** A place in the app's own files (one-based line and column, as editors show them). */
export interface AppLocation {
  file: string;
  line: number;
  column: number;
}

/** A position in the bundle as a stack frame gives it: one-based line and column. */
export interface BundlePosition {
  line: number;
  column: number;
}

// Parsing a map costs more than looking up in it; the last few parsed maps are kept.
const parsedMaps = new Map<string, TraceMap | null>();

function traceMapOf(sourceMap: string | null): TraceMap | null {
  if (!sourceMap) return null;
  const cached = parsedMaps.get(sourceMap);
  if (cached !== undefined) return cached;
  let map: TraceMap | null = null;
  try {
    map = new TraceMap(sourceMap);
  } catch {
    map = null;
  }
  parsedMaps.set(sourceMap, map);
  if (parsedMaps.size > 8) parsedMaps.delete(parsedMaps.keys().next().value as string);
  return map;
}

/**
 * Where a bundle position comes from in the app's files, or null when it is in a dependency
 * (React, an npm package) or nowhere the map knows. Sources are named `app:<path>` by the
 * virtual files plugin.
 */
export function locateBundlePosition(
  sourceMap: string | null,
  position: BundlePosition,
): AppLocation | null {
  const map = traceMapOf(sourceMap);
  if (!map || position.line < 1 || position.column < 1) return null;
  const original = originalPositionFor(map, {
    line: position.line,
    // Stack columns are one-based; source maps count from zero.
    column: position.column - 1,
  });
  if (!original.source || original.line === null || !original.source.startsWith("app:")) {
    return null;
  }
  return {
    file: original.source.slice("app:".length),
    line: original.line,
    column: (original.column ?? 0) + 1,
  };
}

/** The first frame of a stack that is the app's own code: where to look first. */
export function locateFirstAppFrame(
  sourceMap: string | null,
  frames: readonly BundlePosition[],
): AppLocation | null {
  for (const frame of frames) {
    const location = locateBundlePosition(sourceMap, frame);
    if (location) return location;
  }
  return null;
}
