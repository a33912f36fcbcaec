/** The result of checking a path a patch names. */
export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/** The store keeps paths up to this many characters; one policy means the engine does too. */
export const maximumPathLength = 512;
/** NAME_MAX: a segment longer than this many UTF-8 bytes cannot be written on common systems. */
const maximumSegmentBytes = 255;
const utf8 = new TextEncoder();
/** C0 and C1 controls and DEL. */
function hasControlCharacter(path: string): boolean {
  for (let index = 0; index < path.length; index += 1) {
    const code = path.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
// Zero-width, bidi-override and other invisible characters that make a path read as another.
const invisibleCharacters = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
// Characters that look like or normalise to a slash, a backslash or dots.
const separatorLookalikes = /[\u2024\u2025\u2026\u2044\u2215\u29f8\ufe52\uff0e\uff0f\uff3c]/;
const encodedSeparators = /%(2e|2f|5c|00)/i;
const windowsDeviceNames = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

function checkSegment(segment: string): string | null {
  if (segment === "..") return "it climbs out with '..'";
  if (/^[. ]+$/.test(segment)) return `the segment "${segment}" is only dots and spaces`;
  if (/^\s/.test(segment)) return `the segment "${segment}" starts with a space`;
  if (/[. ]$/.test(segment))
    return `the segment "${segment}" ends with a dot or space, which some systems strip`;
  if (segment.toLowerCase() === ".git" || /^git~\d+$/i.test(segment))
    return "it points into the .git directory";
  if (windowsDeviceNames.test(segment)) return `"${segment}" is a reserved device name`;
  if (utf8.encode(segment).length > maximumSegmentBytes)
    return `a segment is longer than ${maximumSegmentBytes} bytes (the file system's limit)`;
  return null;
}

function checkRaw(path: string): string | null {
  if (path.length === 0) return "it is empty";
  if (path.length > maximumPathLength) return `it is longer than ${maximumPathLength} characters`;
  if (path.includes("\u0000")) return "it contains a NUL character";
  if (hasControlCharacter(path)) return "it contains a control character";
  if (invisibleCharacters.test(path))
    return "it contains an invisible or bidirectional-control character";
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
 * The one path policy of Patchwork: the files API, the store, the patch engine and the agent's
 * tools all check paths here. Returns the path normalised ("./src//a.ts" → "src/a.ts", and to
 * Unicode NFC, so "café" typed either way names one file), or why it is refused: anything
 * absolute, climbing with "..", holding NUL, control, invisible or look-alike characters,
 * backslashes, ':' or '~', segments starting with a space or ending with a dot or space, longer
 * than 512 characters or a segment over 255 bytes, naming the root, a directory ("x/"), or
 * pointing into .git (where a hook would run code). The NFKC form must pass too, so full-width
 * dots and slashes cannot sneak a climb past a system that folds them.
 */
export function normalizeWorkspacePath(rawPath: string): PathCheck {
  const path = rawPath.normalize("NFC");
  for (const form of [path, path.normalize("NFKC")]) {
    const problem = checkRaw(form);
    if (problem) return { ok: false, reason: problem };
  }
  if (path.endsWith("/")) return { ok: false, reason: "it names a directory (ends with '/')" };
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    const problem = checkSegment(segment) ?? checkSegment(segment.normalize("NFKC"));
    if (problem) return { ok: false, reason: problem };
    segments.push(segment);
  }
  if (segments.length === 0) return { ok: false, reason: "it names the workspace root" };
  return { ok: true, path: segments.join("/") };
}
