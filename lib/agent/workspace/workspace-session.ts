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

/** Opens the run's base revision in the given form. */
export async function openWorkspaceSession(
  handle: DatabaseHandle,
  run: AgentRunRow,
  form: EngineWorkspace["form"],
): Promise<WorkspaceSession> {
  const revisionId = run.baseRevisionId;
  if (!revisionId) throw new Error("run is missing its base revision");
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
