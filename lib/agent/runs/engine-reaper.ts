import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { listFinishedRunsWithEnginePid, updateRun } from "@/db/queries/runs";
import { reapEngineProcess } from "@/lib/agent/engines/engine-process";
import { logServerError } from "@/lib/log";

/**
 * At start-up, kills the engine process groups recorded for runs that are no longer active (their
 * server died before it could), then forgets the pids. Returns how many groups it killed.
 */
export async function reapLeftoverEngineProcesses(handle: DatabaseHandle): Promise<number> {
  let killed = 0;
  try {
    for (const run of await listFinishedRunsWithEnginePid(handle.db)) {
      if (run.enginePid && (await reapEngineProcess(run.enginePid, run.id))) killed += 1;
      await updateRun(handle.db, { id: run.id, enginePid: null });
    }
  } catch (error) {
    logServerError("could not reap engine processes left by a stopped server", error);
  }
  if (killed > 0) console.log(`[patchwork] killed ${killed} engine process group(s) left behind`);
  return killed;
}
