import "server-only";
import { getDatabaseHandle } from "@/db/client";
import { reapLeftoverEngineProcesses } from "@/lib/agent/runs/engine-reaper";
import { startRunRecovery } from "@/lib/agent/runs/run-recovery";
import { removeLeftoverFolders, runArea } from "@/lib/agent/workspace/workspace-folder";
import { getEnvironment } from "@/lib/env";

/** Validates the environment and opens the database once per server process. */
export async function startServerProcess(): Promise<void> {
  const environment = getEnvironment();
  // Run folders of external engines left by a dead process hold nothing worth keeping.
  const removed = await removeLeftoverFolders(runArea(environment.PATCHWORK_DATA_DIR));
  if (removed > 0)
    console.log(`[patchwork] removed ${removed} run folder(s) left by a stopped server`);
  const handle = await getDatabaseHandle();
  console.log(`[patchwork] database ready (${handle.kind})`);
  await startRunRecovery(handle);
  await reapLeftoverEngineProcesses(handle);
}
