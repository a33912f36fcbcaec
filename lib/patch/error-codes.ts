/**
 * Every way applying a patch can fail, with the meaning a caller (or a model) can act on.
 * The engine is atomic: whatever the code, a failed patch changes nothing.
 */
export const patchErrorDescriptions = {
  PATCH_PARSE_FAILED:
    "The text is not a unified diff or a *** Begin Patch patch; the failure names the patch line and what was expected there.",
  PATCH_EMPTY:
    "The patch holds no file operation, or applying it would change nothing (only mode changes, identical -/+ lines).",
  PATCH_PATH_POLICY_VIOLATION:
    "A path is absolute, climbs with '..', holds NUL, control or look-alike characters, backslashes, '~', a drive letter or ':', points into .git, or (CLI) passes through a symbolic link. Checked before any file is read.",
  PATCH_FILE_EXISTS:
    "An add, copy or move targets a path that already holds a file; the engine never overwrites on add or move.",
  PATCH_FILE_NOT_FOUND: "An update, delete, move or copy names a file that does not exist.",
  PATCH_PATH_IS_DIRECTORY: "A file operation names a path that is a directory.",
  PATCH_PARENT_IS_FILE: "A new file's parent directory would have to replace an existing file.",
  PATCH_FILE_NOT_TEXT:
    "The target exists but is not text the engine may edit (binary or undecodable); the caller keeps such files out.",
  PATCH_BINARY_NOT_SUPPORTED:
    "The patch carries a binary diff (GIT binary patch / Binary files differ).",
  PATCH_CONTEXT_NOT_FOUND:
    "A hunk's context and removed lines (or its @@ anchor) match nowhere in the file at any tolerance.",
  PATCH_AMBIGUOUS_MATCH:
    "A hunk matches more than one place equally well, has no unchanged line to place it, or '---'/'+++' name two existing files; the engine never guesses.",
  PATCH_DELETE_INCOMPLETE:
    "A delete lists removed lines, but the file holds lines the patch does not list, so the patch was made against different content.",
  PATCH_LAZY_PLACEHOLDER:
    "A hunk removes real lines and adds a placeholder such as '// ... existing code ...' in their place (or new content over an existing file is mostly such a placeholder): applying it would delete that code. Resend the lines you keep in full.",
  PATCH_ALREADY_APPLIED:
    "A hunk's removed lines are gone and its result is already in the file: the change was made before (by an earlier patch or the person). Nothing was changed; leave that hunk out.",
  PATCH_TOO_COMPLEX:
    "Placing the hunks would take more searching than the engine allows (many hunks of common lines against a large file); nothing was changed. Send fewer, smaller hunks with rarer context lines, or read the file and resend the exact lines.",
  PATCH_WRITE_FAILED:
    "CLI only: the patch applied in memory but writing the folder failed; files already written were restored.",
} as const;

/** The `code` of a failed patch and of each of its failures. */
export type PatchErrorCode = keyof typeof patchErrorDescriptions;
