import { applyHunks, type FileEditOptions } from "./apply-hunks";
import { type FailureEntry, fileFailure, hunkFailure } from "./patch-failure";
import type { FilePatch } from "./patch-model";
import type { LooseMatch, MatchTolerance, PatchChange } from "./patch-result";
import { splitText } from "./text-lines";
import type { WorkspaceView } from "./workspace-view";

export type OperationOutcome =
  | { ok: true; changes: PatchChange[]; loose: LooseMatch[] }
  | { ok: false; failures: FailureEntry[] };

type Edited =
  | { ok: true; text: string; additions: number; deletions: number; loose: LooseMatch[] }
  | { ok: false; failures: FailureEntry[] };

/** Tolerances that forgave more than position or trailing blanks: worth re-reading the result. */
const reviewedTolerances = new Set<MatchTolerance>([
  "surrounding-whitespace",
  "unicode-lookalike",
  "missing-context",
  "elided-context",
]);

function failed(...failures: FailureEntry[]): { ok: false; failures: FailureEntry[] } {
  return { ok: false, failures };
}

/** Why a new file cannot be written at `path`, if it cannot. */
function destinationConflict(view: WorkspaceView, path: string, verb: string): FailureEntry | null {
  if (view.exists(path)) {
    return fileFailure(
      path,
      "PATCH_FILE_EXISTS",
      `the file already exists, so it cannot be ${verb}; the engine never overwrites`,
    );
  }
  if (view.isDirectory(path))
    return fileFailure(path, "PATCH_PATH_IS_DIRECTORY", "the path is a directory");
  const ancestor = view.fileAncestor(path);
  if (ancestor)
    return fileFailure(
      path,
      "PATCH_PARENT_IS_FILE",
      `${ancestor} is a file, so it cannot hold ${path}`,
    );
  return null;
}

/** The text of an existing file, or why it cannot be edited. */
function readExisting(
  view: WorkspaceView,
  path: string,
): { ok: true; text: string } | { ok: false; failures: FailureEntry[] } {
  const read = view.read(path);
  if (read.kind === "text") return { ok: true, text: read.text };
  if (read.kind === "not-text") {
    return failed(
      fileFailure(path, "PATCH_FILE_NOT_TEXT", "the file is binary or not readable as text"),
    );
  }
  if (view.isDirectory(path))
    return failed(
      fileFailure(path, "PATCH_PATH_IS_DIRECTORY", "the path is a directory, not a file"),
    );
  const similar = view.similarPaths(path);
  const hint = similar.length > 0 ? ` (did you mean ${similar.join(" or ")}?)` : "";
  return failed(fileFailure(path, "PATCH_FILE_NOT_FOUND", `the file does not exist${hint}`));
}

/**
 * Applies a section's hunks to `text` (the content of `file.path`); failures name `file.path`,
 * the file whose lines the model must re-read, and loose matches name `resultPath`, where the
 * patched lines now are.
 */
function edit(
  text: string,
  file: FilePatch,
  options: FileEditOptions,
  resultPath = file.path,
): Edited {
  const outcome = applyHunks(text, file.hunks, options);
  if (!outcome.ok) {
    return failed(
      ...outcome.failures.map((failure) =>
        hunkFailure(file.path, file.hunks[failure.hunkIndex], failure, outcome.index),
      ),
    );
  }
  const loose = outcome.placed
    .filter((placed) => reviewedTolerances.has(placed.tolerance))
    .map((placed) => ({
      path: resultPath,
      hunk_index: placed.hunkIndex + 1,
      start_line: placed.resultStart + 1,
      end_line: placed.resultStart + Math.max(1, placed.resultLength),
      tolerance: placed.tolerance,
    }));
  return {
    ok: true,
    text: outcome.text,
    additions: outcome.additions,
    deletions: outcome.deletions,
    loose,
  };
}

/** An update whose '---' and '+++' name different files goes to the one that exists. */
function resolveUpdatePath(
  view: WorkspaceView,
  file: FilePatch,
): { ok: true; path: string } | { ok: false; failures: FailureEntry[] } {
  if (file.alternatePath === null) return { ok: true, path: file.path };
  const existing = [file.path, file.alternatePath].filter((path) => view.exists(path));
  if (existing.length === 1) return { ok: true, path: existing[0] };
  if (existing.length === 2) {
    const message = `'---' names ${file.path} and '+++' names ${file.alternatePath}, and both exist; use the same path twice, or rename headers for a move`;
    return failed(fileFailure(file.alternatePath, "PATCH_AMBIGUOUS_MATCH", message));
  }
  return failed(
    fileFailure(
      file.alternatePath,
      "PATCH_FILE_NOT_FOUND",
      `neither ${file.path} nor ${file.alternatePath} exists`,
    ),
  );
}

/**
 * Applies one file section of a patch to the workspace view: add, update, delete, move or copy,
 * refusing to overwrite, to edit what is missing, not a file, or not text. Writes to the view
 * only when the whole section succeeded.
 */
export function applyFileOperation(
  view: WorkspaceView,
  file: FilePatch,
  options: FileEditOptions,
): OperationOutcome {
  switch (file.kind) {
    case "add": {
      const conflict = destinationConflict(view, file.path, "added");
      if (conflict) return failed(conflict);
      const added = edit("", file, options);
      if (!added.ok) return added;
      view.write(file.path, added.text);
      return {
        ok: true,
        changes: [{ path: file.path, op: "add", additions: added.additions, deletions: 0 }],
        loose: [],
      };
    }
    case "update": {
      const resolved = resolveUpdatePath(view, file);
      if (!resolved.ok) return resolved;
      const existing = readExisting(view, resolved.path);
      if (!existing.ok) return existing;
      const updated = edit(existing.text, { ...file, path: resolved.path }, options);
      if (!updated.ok) return updated;
      view.write(resolved.path, updated.text);
      const change: PatchChange = {
        path: resolved.path,
        op: "update",
        additions: updated.additions,
        deletions: updated.deletions,
      };
      return { ok: true, changes: [change], loose: updated.loose };
    }
    case "delete": {
      const existing = readExisting(view, file.path);
      if (!existing.ok) return existing;
      let deletions = splitText(existing.text).lines.length;
      if (file.hunks.length > 0) {
        const emptied = edit(existing.text, file, options);
        if (!emptied.ok) return emptied;
        const left = splitText(emptied.text).lines.length;
        if (left > 0) {
          const message = `the patch deletes the file but lists only ${emptied.deletions} of its ${deletions} lines, so it was made against different content`;
          return failed(fileFailure(file.path, "PATCH_DELETE_INCOMPLETE", message));
        }
        deletions = emptied.deletions;
      }
      view.remove(file.path);
      return {
        ok: true,
        changes: [{ path: file.path, op: "delete", additions: 0, deletions }],
        loose: [],
      };
    }
    case "rename":
    case "copy": {
      const target = file.targetPath ?? file.path;
      const existing = readExisting(view, file.path);
      if (!existing.ok) return existing;
      if (target !== file.path || file.kind === "copy") {
        const conflict = destinationConflict(
          view,
          target,
          file.kind === "copy" ? "copied onto" : "moved onto",
        );
        if (conflict) return failed(conflict);
      }
      const moved = edit(existing.text, file, options, target);
      if (!moved.ok) return moved;
      if (file.kind === "rename") view.remove(file.path);
      view.write(target, moved.text);
      const op = file.kind === "copy" ? "add" : target === file.path ? "update" : "rename";
      const change: PatchChange = {
        path: target,
        op,
        additions: moved.additions,
        deletions: moved.deletions,
      };
      if (op !== "update") change.from_path = file.path;
      return { ok: true, changes: [change], loose: moved.loose };
    }
  }
}
