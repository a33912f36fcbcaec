import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import type { PreviewBuild } from "./preview-types";

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

// Parsing a map costs more than looking up in it; builds are immutable and cached, so their
// parsed maps are kept beside them for as long as the build lives.
const parsedMaps = new WeakMap<PreviewBuild, TraceMap | null>();

function traceMapOf(build: PreviewBuild): TraceMap | null {
  if (parsedMaps.has(build)) return parsedMaps.get(build) ?? null;
  let map: TraceMap | null = null;
  try {
    map = build.sourceMap ? new TraceMap(build.sourceMap) : null;
  } catch {
    map = null;
  }
  parsedMaps.set(build, map);
  return map;
}

/**
 * Where a bundle position comes from in the app's files, or null when it is in a dependency
 * (React, an npm package) or nowhere the map knows. Sources are named `app:<path>` by the
 * virtual files plugin.
 */
export function locateBundlePosition(
  build: PreviewBuild,
  position: BundlePosition,
): AppLocation | null {
  const map = traceMapOf(build);
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
  build: PreviewBuild,
  frames: readonly BundlePosition[],
): AppLocation | null {
  for (const frame of frames) {
    const location = locateBundlePosition(build, frame);
    if (location) return location;
  }
  return null;
}
