import { PatchworkError } from "@/lib/errors";

export const maxPathLength = 512;
const maxSegmentLength = 255;
// Control characters (NUL included) have no business in a file name and confuse tools downstream.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const forbiddenCharacters = /[\u0000-\u001f\u007f\\]/;

/**
 * Returns the canonical form of a workspace path, or throws VALIDATION_FAILED. Canonical paths are
 * relative, use "/" and have no empty, "." or ".." segments, so they can never leave the workspace.
 */
export function normalizeWorkspacePath(raw: string): string {
  const reason = workspacePathProblem(raw);
  if (reason) {
    throw new PatchworkError("VALIDATION_FAILED", `Invalid path "${truncate(raw)}": ${reason}.`, {
      details: { path: truncate(raw), reason },
    });
  }
  return raw.replace(/^\.\//, "");
}

/** Explains why a path is not acceptable, or returns null when it is. */
export function workspacePathProblem(raw: string): string | null {
  if (typeof raw !== "string" || raw.length === 0) return "the path is empty";
  if (raw.length > maxPathLength) return `paths are limited to ${maxPathLength} characters`;
  if (forbiddenCharacters.test(raw)) return "control characters and backslashes are not allowed";
  const path = raw.replace(/^\.\//, "");
  if (path.startsWith("/")) return "absolute paths are not allowed";
  if (/^[a-zA-Z]:/.test(path)) return "drive letters are not allowed";
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") return "empty path segments are not allowed";
    if (segment === "." || segment === "..") return "'.' and '..' segments are not allowed";
    if (segment.length > maxSegmentLength)
      return `path segments are limited to ${maxSegmentLength} characters`;
    if (segment !== segment.trim()) return "segments cannot start or end with spaces";
  }
  return null;
}

function truncate(value: unknown): string {
  const text = String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
