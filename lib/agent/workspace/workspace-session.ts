import "server-only";
import type { DatabaseHandle } from "@/db/client";
import type { AgentRunRow } from "@/db/schema";
import type { EngineWorkspace } from "@/lib/agent/engines/engine";
import { getEnvironment } from "@/lib/env";
import type { FileChange } from "@/lib/workspace";
import { readAllFiles } from "@/lib/workspace";
import {
  collectFolderChanges,
  materializeFolder,
  type RefusedPath,
  removeFolder,
  runArea,
} from "./workspace-folder";
import { WorkspaceOverlay } from "./workspace-overlay";

/**
 * One run's workspace in the form its engine works in: an in-memory overlay (native) or a private
 * folder materialised from the base revision (external engines). Either way the run ends with
 * `changes()` as one revision, and `close()` (on every path out) leaves nothing behind.
 */
export interface WorkspaceSession {
  workspace: EngineWorkspace;
  /** The net changes since the base revision, and what was refused (folder form only). */
  changes(): Promise<{ changes: FileChange[]; refused: RefusedPath[] }>;
  close(): Promise<void>;
}

/**
 * Opens the run's base revision in the given form — or, for a run resuming after a rate limit,
 * the revision holding its work so far; `changes()` then still answers the net changes since the
 * run's base, so the run lands as one revision however many times it paused.
 */
export async function openWorkspaceSession(
  handle: DatabaseHandle,
  run: AgentRunRow,
  form: EngineWorkspace["form"],
): Promise<WorkspaceSession> {
  if (!run.baseRevisionId) throw new Error("run is missing its base revision");
  const session = await openRevision(handle, run, run.pausedRevisionId ?? run.baseRevisionId, form);
  if (!run.pausedRevisionId || run.pausedRevisionId === run.baseRevisionId) return session;
  const [base, paused] = await Promise.all([
    readAllFiles(handle.db, { appId: run.appId, revisionId: run.baseRevisionId }),
    readAllFiles(handle.db, { appId: run.appId, revisionId: run.pausedRevisionId }),
  ]);
  return {
    ...session,
    changes: async () => {
      const { changes, refused } = await session.changes();
      return { changes: netChanges(base.files, applyChanges(paused.files, changes)), refused };
    },
  };
}

/** The files after `changes` (writes, deletes, renames) are applied to `files`. */
export function applyChanges(
  files: ReadonlyMap<string, Uint8Array>,
  changes: FileChange[],
): Map<string, Uint8Array> {
  const result = new Map(files);
  for (const change of changes) {
    if (change.type === "write")
      result.set(
        change.path,
        typeof change.content === "string"
          ? new TextEncoder().encode(change.content)
          : change.content,
      );
    else if (change.type === "delete") result.delete(change.path);
    else {
      const content = result.get(change.from);
      result.delete(change.from);
      if (content) result.set(change.to, content);
    }
  }
  return result;
}

/** Writes and deletes that turn `before` into `after`. */
export function netChanges(
  before: ReadonlyMap<string, Uint8Array>,
  after: ReadonlyMap<string, Uint8Array>,
): FileChange[] {
  const changes: FileChange[] = [];
  for (const [path, content] of after) {
    const previous = before.get(path);
    if (!previous || !Buffer.from(previous).equals(Buffer.from(content)))
      changes.push({ type: "write", path, content });
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ type: "delete", path });
  return changes;
}

async function openRevision(
  handle: DatabaseHandle,
  run: AgentRunRow,
  revisionId: string,
  form: EngineWorkspace["form"],
): Promise<WorkspaceSession> {
  if (form === "overlay") {
    const overlay = await WorkspaceOverlay.open(handle.db, { appId: run.appId, revisionId });
    return {
      workspace: { form, overlay },
      changes: async () => ({ changes: await overlay.changes(), refused: [] }),
      close: async () => undefined,
    };
  }
  const { files } = await readAllFiles(handle.db, { appId: run.appId, revisionId });
  // One folder path per app (an app has one active run at a time): engines that bind their
  // sessions to a folder (OpenCode) can then continue them in the next run.
  const directory = await materializeFolder(
    runArea(getEnvironment().PATCHWORK_DATA_DIR),
    `app-${run.appId}`,
    files,
  );
  return {
    workspace: { form, directory },
    changes: () => collectFolderChanges(directory, files),
    close: () => removeFolder(directory),
  };
}
