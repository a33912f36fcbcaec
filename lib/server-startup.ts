import "server-only";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getDatabaseHandle } from "@/db/client";
import { reapLeftoverEngineProcesses } from "@/lib/agent/runs/engine-reaper";
import { startRunWorker } from "@/lib/agent/runs/run-dispatcher";
import { startRunRecovery } from "@/lib/agent/runs/run-recovery";
import { removeLeftoverFolders, runArea } from "@/lib/agent/workspace/workspace-folder";
import { getEnvironment } from "@/lib/env";

/**
 * Validates the environment and opens the database once per server process; then, unless this
 * process only serves (`PATCHWORK_ROLE=web` with Postgres), it executes runs too.
 */
export async function startServerProcess(): Promise<void> {
  await installConnectionGuard();
  const handle = await startRunProcess();
  if (handle.kind === "pglite" || getEnvironment().PATCHWORK_ROLE !== "web") {
    await startRunWorker(handle);
    console.log(
      `[patchwork] executing runs here (${handle.kind === "pglite" ? "in process" : `queue worker, ${getEnvironment().PATCHWORK_WORKER_CONCURRENCY} at a time`})`,
    );
  }
}

/**
 * What every process touching runs does at start: clean up after a dead process, open the
 * database (applying migrations), start recovering interrupted runs and reaping engine processes.
 * Shared by the web server and `npm run worker`.
 */
export async function startRunProcess() {
  const environment = getEnvironment();
  // Run folders of external engines left by a dead process hold nothing worth keeping.
  const removed = await removeLeftoverFolders(runArea(environment.PATCHWORK_DATA_DIR));
  if (removed > 0)
    console.log(`[patchwork] removed ${removed} run folder(s) left by a stopped server`);
  const handle = await getDatabaseHandle();
  console.log(`[patchwork] database ready (${handle.kind})`);
  await startRunRecovery(handle);
  await reapLeftoverEngineProcesses(handle);
  return handle;
}

/**
 * Tags each request with its connection's addresses and refuses exposed connections without a
 * token. Loaded from disk, not bundled: the start script installs the same module before Next.
 */
async function installConnectionGuard(): Promise<void> {
  const guardPath = path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    "scripts",
    "connection-guard.mjs",
  );
  const guard = (await import(/*turbopackIgnore: true*/ pathToFileURL(guardPath).href)) as {
    installConnectionGuard(options: { onExposedListen?: (message: string) => void }): void;
  };
  guard.installConnectionGuard({});
}
