import type { PatchErrorCode } from "./error-codes";
import type { PatchFailureDetail } from "./patch-result";

const actions: Record<PatchErrorCode, string> = {
  PATCH_PARSE_FAILED: "resend it as a unified diff or a *** Begin Patch patch",
  PATCH_EMPTY: "send at least one file operation that adds or removes lines",
  PATCH_PATH_POLICY_VIOLATION: "use a plain path relative to the workspace root",
  PATCH_FILE_EXISTS:
    "choose a free path, or update the existing file with hunks against its current content",
  PATCH_FILE_NOT_FOUND: "check the path, or create the file with *** Add File (or --- /dev/null)",
  PATCH_PATH_IS_DIRECTORY: "name a file, not a directory",
  PATCH_PARENT_IS_FILE: "choose a path whose directories are not existing files",
  PATCH_FILE_NOT_TEXT: "leave binary files out of patches",
  PATCH_BINARY_NOT_SUPPORTED: "send text changes only",
  PATCH_CONTEXT_NOT_FOUND:
    "re-read the refresh window and resend the hunk with the file's current lines",
  PATCH_AMBIGUOUS_MATCH:
    "include unchanged lines around the change that only the intended place has",
  PATCH_DELETE_INCOMPLETE: "re-read the file, or delete it without listing its lines",
  PATCH_LAZY_PLACEHOLDER:
    "resend the hunk with every line you keep written out as a context line, never a '... existing code ...' placeholder",
  PATCH_ALREADY_APPLIED:
    "leave the hunks already made out of the patch (re-read the file if unsure) and resend the rest",
  PATCH_TOO_COMPLEX:
    "re-read the file and send fewer hunks, each with a few exact, distinctive context lines",
  PATCH_WRITE_FAILED: "check the folder's permissions and free space, then run the patch again",
};

function subject(detail: PatchFailureDetail): string {
  if (detail.path === null) return "The patch";
  if (detail.hunk_index === null) return detail.path;
  return `Hunk ${detail.hunk_index} of ${detail.path}`;
}

function problem(detail: PatchFailureDetail): string {
  if (detail.code === "PATCH_CONTEXT_NOT_FOUND" && detail.nearest_match) {
    const { start_line, similarity } = detail.nearest_match;
    return `${subject(detail)}: ${detail.message} (closest: line ${start_line}, ${Math.round(similarity * 100)}% alike)`;
  }
  return `${subject(detail)}: ${detail.message}`;
}

/**
 * One sentence a model can act on: what failed, where, and what to do — and that nothing was
 * changed, because the engine is atomic. Several failures are counted and the first is spelled out.
 */
export function summarizeFailures(details: readonly PatchFailureDetail[]): string {
  const [first] = details;
  if (!first) return "The patch failed; nothing was changed.";
  if (details.length === 1)
    return `${problem(first)}; ${actions[first.code]} (nothing was changed).`;
  const files = new Set(details.map((detail) => detail.path ?? "")).size;
  const where = files > 1 ? ` in ${files} files` : "";
  return `${details.length} problems${where}, first — ${problem(first)}; fix each one (refresh_windows shows the current lines) and resend the whole patch (nothing was changed).`;
}
