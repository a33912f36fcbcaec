import { extractPatchLines } from "./extract-patch-lines";
import { isBeginPatchMarker, parseBeginPatch } from "./parse-begin-patch";
import { parseUnifiedDiff } from "./parse-unified-diff";
import type { ParseOutcome } from "./patch-model";
import { isFileHeaderPair } from "./read-hunk-body";

const beginPatchHeaderPattern = /^\s*\*\*\* (Add|Update|Delete) File:/;

/**
 * Parses a patch in either format, tolerating markdown fences and prose around it. A text with
 * content but no recognisable patch is a parse failure naming its first line; a blank text or a
 * patch with no file operation parses to zero files (the caller reports PATCH_EMPTY).
 */
export function parsePatch(text: string): ParseOutcome {
  const parsed = parseText(text);
  if (parsed.ok) return parsed;
  // A patch JSON-escaped onto one line ("--- a/x\\n+++ b/x\\n…"): decoded, if that parses.
  const decoded = decodeEscapedPatch(text);
  if (decoded !== null) {
    const retried = parseText(decoded);
    if (retried.ok && retried.patch.files.length > 0) return retried;
  }
  return parsed;
}

/**
 * The text with JSON string escapes (`\n`, `\t`, `\"`, `\\`) decoded, when it holds escaped
 * newlines but (almost) no real ones; null otherwise.
 */
export function decodeEscapedPatch(text: string): string | null {
  if (!text.includes("\\n") || text.split("\n").length > 3) return null;
  let body = text.trim();
  if (body.length >= 2 && body.startsWith('"') && body.endsWith('"')) body = body.slice(1, -1);
  try {
    const decoded = JSON.parse(`"${body}"`);
    if (typeof decoded === "string") return decoded;
  } catch {
    // Not a valid JSON string (a stray quote): decode the common escapes by hand below.
  }
  return body.replace(/\\([nrt"\\])/g, (_, escapedCharacter: string) =>
    escapedCharacter === "n"
      ? "\n"
      : escapedCharacter === "r"
        ? "\r"
        : escapedCharacter === "t"
          ? "\t"
          : escapedCharacter,
  );
}

function parseText(text: string): ParseOutcome {
  const lines = extractPatchLines(text);
  if (lines.some((line) => isBeginPatchMarker(line.text))) {
    // A unified diff beside the envelope would be silently dropped: refuse the mix instead.
    const begin = lines.findIndex((line) => isBeginPatchMarker(line.text));
    const end = lines.findLastIndex((line) => line.text.trim() === "*** End Patch");
    const outside = lines.find(
      (line, index) =>
        (index < begin || (end !== -1 && index > end)) &&
        (line.text.startsWith("diff --git ") || isFileHeaderPair(lines, index)),
    );
    if (outside) {
      return {
        ok: false,
        failure: {
          line: outside.number,
          expected: "one format: a *** Begin Patch patch or a unified diff, not both",
          found: outside.text,
        },
      };
    }
    return parseBeginPatch(lines);
  }
  const beginPatchHeader = lines.find((line) => beginPatchHeaderPattern.test(line.text));
  if (beginPatchHeader) {
    return {
      ok: false,
      failure: {
        line: beginPatchHeader.number,
        expected: "*** Begin Patch before the first file header",
        found: beginPatchHeader.text,
      },
    };
  }
  const parsed = parseUnifiedDiff(lines);
  if (parsed.ok && parsed.patch.files.length === 0 && parsed.patch.warnings.length === 0) {
    const first = lines.find((line) => line.text.trim() !== "");
    if (first) {
      return {
        ok: false,
        failure: {
          line: first.number,
          expected:
            "a unified diff ('--- a/<path>' and '+++ b/<path>', or 'diff --git') or '*** Begin Patch'",
          found: first.text,
        },
      };
    }
  }
  return parsed;
}
