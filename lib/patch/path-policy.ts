/**
 * The one workspace path policy: the files API, the patch engine, the agent's tools and the store
 * all ask this module, so a path one of them accepts is a path every other one accepts too.
 * Pure (no project imports) so the patch engine and its CLI can use it as they are.
 */

/** The result of checking a path. */
export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/** The longest path the store keeps, in characters (after normalisation). */
export const maximumPathLength = 512;
/** NAME_MAX on every common file system, counted in UTF-8 bytes as the kernel does. */
export const maximumSegmentBytes = 255;

// Control (Cc), format (Cf: zero-width, bidi overrides such as U+202E, BOM), line and paragraph
// separators, and unassigned or private-use characters make a path read as another one.
const invisibleOrControl = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;
// Characters that look like or normalise to a slash, a backslash or dots.
const separatorLookalikes = /[\u2024\u2025\u2026\u2044\u2215\u29f8\ufe52\uff0e\uff0f\uff3c]/;
const encodedSeparators = /%(2e|2f|5c|00)/i;
const windowsDeviceNames = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
const utf8 = new TextEncoder();

function checkSegment(segment: string): string | null {
  if (segment === "..") return "it climbs out with '..'";
  if (/^[. ]+$/.test(segment)) return `the segment "${segment}" is only dots and spaces`;
  if (/^\s/.test(segment)) return `the segment "${segment}" starts with a space`;
  if (/[.\s]$/.test(segment))
    return `the segment "${segment}" ends with a dot or space, which some systems strip`;
  if (segment.toLowerCase() === ".git" || /^git~\d+$/i.test(segment))
    return "it points into the .git directory";
  if (windowsDeviceNames.test(segment)) return `"${segment}" is a reserved device name`;
  if (utf8.encode(segment).byteLength > maximumSegmentBytes)
    return `a segment is longer than ${maximumSegmentBytes} bytes`;
  return null;
}

function checkRaw(path: string): string | null {
  if (path.length === 0) return "it is empty";
  if (path.length > maximumPathLength) return `it is longer than ${maximumPathLength} characters`;
  if (path.includes("\u0000")) return "it contains a NUL character";
  if (invisibleOrControl.test(path))
    return "it contains a control, invisible or bidirectional-control character";
  if (path.includes("\\")) return "it contains a backslash";
  if (separatorLookalikes.test(path))
    return "it contains a character that looks like a slash or dots";
  if (encodedSeparators.test(path)) return "it contains a percent-encoded dot, slash or NUL";
  if (path.startsWith("/")) return "it is absolute";
  if (path.includes(":")) return "it contains ':' (a drive letter, stream or URL scheme)";
  if (path === "~" || path.startsWith("~/")) return "it starts with '~' (a home directory)";
  return null;
}

/**
 * Checks a workspace path and returns its canonical form ("./src//a.ts" → "src/a.ts", Unicode in
 * NFC so a decomposed twin names the same file), or why it is refused: anything absolute,
 * climbing with "..", holding control, invisible or look-alike characters, backslashes, ':' or
 * '~', segments that start with a space or end with a dot or space, names over 255 bytes, paths
 * over 512 characters, the root, a directory ("x/"), or anything in .git (where a hook would run
 * code). The NFKC form must pass too, so full-width dots and slashes cannot sneak a climb past a
 * system that folds them.
 */
export function normalizeWorkspacePath(path: string): PathCheck {
  if (typeof path !== "string") return { ok: false, reason: "it is not a string" };
  const canonical = path.normalize("NFC");
  for (const form of [canonical, path.normalize("NFKC")]) {
    const problem = checkRaw(form);
    if (problem) return { ok: false, reason: problem };
  }
  if (canonical.endsWith("/")) return { ok: false, reason: "it names a directory (ends with '/')" };
  const segments: string[] = [];
  for (const segment of canonical.split("/")) {
    if (segment === "" || segment === ".") continue;
    const problem = checkSegment(segment) ?? checkSegment(segment.normalize("NFKC"));
    if (problem) return { ok: false, reason: problem };
    segments.push(segment);
  }
  if (segments.length === 0) return { ok: false, reason: "it names the workspace root" };
  return { ok: true, path: segments.join("/") };
}

/** Explains why a path is refused, or returns null when the policy accepts it. */
export function workspacePathProblem(path: string): string | null {
  const checked = normalizeWorkspacePath(path);
  return checked.ok ? null : checked.reason;
}
