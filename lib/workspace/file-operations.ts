import "server-only";
import type { Executor } from "@/db/client";
import { PatchworkError } from "@/lib/errors";
import { type CommitRevisionResult, commitRevision, getDraftRevision } from "./commit-revision";
import type { FileChange } from "./file-changes";
import { normalizeWorkspacePath } from "./paths";
import { resolveRevision } from "./read-files";
import { loadManifest } from "./tree-store";

/** An empty folder is kept as this one empty file, as git users expect. */
export const folderPlaceholder = ".gitkeep";

/** One file-tree operation a person makes; a batch of them becomes one revision. */
export type FileOperation =
  | { type: "create_file"; path: string; content?: string }
  | { type: "create_folder"; path: string }
  | { type: "upload"; path: string; bytes: Uint8Array }
  | { type: "rename"; from: string; to: string }
  | { type: "delete"; path: string };

/**
 * Applies file-tree operations (new file, new folder, upload, rename/move and delete of a file or
 * a whole folder) against a base revision as one `manual` revision; REVISION_CONFLICT on a stale
 * base, and the same path policy and limits as every other write.
 */
export async function applyFileOperations(
  db: Executor,
  input: { appId: string; baseRevisionId: string; operations: FileOperation[]; message?: string },
): Promise<CommitRevisionResult> {
  const base = await resolveRevision(db, { appId: input.appId, revisionId: input.baseRevisionId });
  // A stale base is a conflict before anything else: its folders may not be the draft's any more.
  const head = await getDraftRevision(db, { appId: input.appId });
  if (head.id !== base.id)
    throw new PatchworkError(
      "REVISION_CONFLICT",
      "The draft changed since the file tree was loaded; reload it and try again.",
      { details: { base_revision_id: base.id, draft_revision_id: head.id } },
    );
  const paths = new Set((await loadManifest(db, base.rootTreeHash)).keys());
  const changes: FileChange[] = [];
  const under = (folder: string) => [...paths].filter((path) => path.startsWith(`${folder}/`));
  const exists = (path: string) => paths.has(path) || under(path).length > 0;
  for (const operation of input.operations) {
    if (operation.type === "rename") {
      const from = normalizeWorkspacePath(operation.from);
      const to = normalizeWorkspacePath(operation.to);
      if (from === to) continue;
      if (to.startsWith(`${from}/`)) throw invalid(`Cannot move ${from} into itself.`, to);
      if (exists(to)) throw invalid(`${to} already exists.`, to);
      const moves: Array<[string, string]> = paths.has(from)
        ? [[from, to]]
        : under(from).map((path) => [path, `${to}${path.slice(from.length)}`]);
      if (moves.length === 0) throw missing(from);
      for (const [oldPath, newPath] of moves) {
        normalizeWorkspacePath(newPath);
        changes.push({ type: "rename", from: oldPath, to: newPath });
        paths.delete(oldPath);
        paths.add(newPath);
      }
      continue;
    }
    const path = normalizeWorkspacePath(operation.path);
    if (operation.type === "delete") {
      const doomed = paths.has(path) ? [path] : under(path);
      if (doomed.length === 0) throw missing(path);
      for (const file of doomed) {
        changes.push({ type: "delete", path: file });
        paths.delete(file);
      }
      continue;
    }
    if (exists(path)) throw invalid(`${path} already exists.`, path);
    const target = operation.type === "create_folder" ? `${path}/${folderPlaceholder}` : path;
    const content =
      operation.type === "upload"
        ? operation.bytes
        : operation.type === "create_file"
          ? (operation.content ?? "")
          : "";
    changes.push({ type: "write", path: normalizeWorkspacePath(target), content });
    paths.add(target);
  }
  return commitRevision(db, {
    appId: input.appId,
    baseRevisionId: base.id,
    changes,
    source: "manual",
    message: input.message ?? describeOperations(input.operations),
  });
}

function describeOperations(operations: FileOperation[]): string {
  if (operations.length !== 1) return `${operations.length} file operations`;
  const [operation] = operations;
  switch (operation.type) {
    case "rename":
      return `Moved ${operation.from} to ${operation.to}`;
    case "delete":
      return `Deleted ${operation.path}`;
    case "create_folder":
      return `Created folder ${operation.path}`;
    case "upload":
      return `Uploaded ${operation.path}`;
    default:
      return `Created ${operation.path}`;
  }
}

function invalid(message: string, path: string): PatchworkError {
  return new PatchworkError("VALIDATION_FAILED", message, { details: { path } });
}

function missing(path: string): PatchworkError {
  return new PatchworkError("NOT_FOUND", `${path} does not exist in this revision.`, {
    details: { path },
  });
}
