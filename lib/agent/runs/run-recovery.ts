import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { getLastEventSeq, listActiveRuns } from "@/db/queries/runs";
import { getRunEventBus } from "@/lib/agent/events/event-bus";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { RunEventWriter } from "@/lib/agent/events/run-event-writer";
import { logServerError } from "@/lib/log";
import { localExecutions } from "./run-executor";
import { getRunLocks } from "./run-locks";

/**
 * Fails runs whose process died (PRODUCT: CODING_AGENT_RUN_INTERRUPTED). Their edits lived only
 * in that process's overlay, so the draft is still the pre-run revision; the stream gets its
 * terminal event after whatever was stored. Returns the ids it failed.
 */
export async function recoverInterruptedRuns(handle: DatabaseHandle): Promise<string[]> {
  const locks = getRunLocks(handle);
  const bus = await getRunEventBus(handle);
  const recovered: string[] = [];
  for (const run of await listActiveRuns(handle.db)) {
    if (localExecutions().has(run.id)) continue;
    if (!(await locks.isOrphaned(run.id))) continue;
    const writer = new RunEventWriter(
      handle,
      bus,
      { id: run.id, appId: run.appId },
      await getLastEventSeq(handle.db, { runId: run.id }),
    );
    const message =
      "The server stopped while this run was in progress; no files were changed. Send the request again.";
    await writer.finish(
      "run.failed",
      { code: runErrorCodes.interrupted, message },
      { status: "failed", errorCode: runErrorCodes.interrupted, errorMessage: message },
    );
    recovered.push(run.id);
  }
  return recovered;
}

const sweeperKey = Symbol.for("patchwork.runSweeper");
type GlobalWithSweeper = typeof globalThis & { [sweeperKey]?: NodeJS.Timeout };

/**
 * Recovers at start-up, and on Postgres keeps sweeping: another process on the same database may
 * die at any time, and its runs must not stay "running" forever.
 */
export async function startRunRecovery(handle: DatabaseHandle, intervalMs = 15_000): Promise<void> {
  const recovered = await recoverInterruptedRuns(handle);
  if (recovered.length > 0)
    console.log(`[patchwork] marked ${recovered.length} interrupted run(s) as failed`);
  const holder = globalThis as GlobalWithSweeper;
  if (handle.kind !== "postgres" || holder[sweeperKey]) return;
  holder[sweeperKey] = setInterval(() => {
    recoverInterruptedRuns(handle).catch((error) => logServerError("run recovery failed", error));
  }, intervalMs);
  holder[sweeperKey].unref();
}
