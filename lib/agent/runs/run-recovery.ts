import "server-only";
import type { DatabaseHandle } from "@/db/client";
import type { RunFinishGuard } from "@/db/queries/runs";
import { listActiveRuns, listRunsWithExpiredLease } from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { RunEventWriter } from "@/lib/agent/events/run-event-writer";
import { logServerError } from "@/lib/log";
import { localExecutions } from "./run-executor";
import { leaseSeconds } from "./run-lease";
import { listStrandedRuns } from "./run-queue";

const interruptedMessage =
  "The server executing this run stopped while it was in progress; no files were changed. Send the request again.";

/**
 * Fails runs whose executing process died (PRODUCT: CODING_AGENT_RUN_INTERRUPTED). Their edits
 * lived only in that process, so the draft is still the pre-run revision; the stream gets its
 * terminal event after whatever was stored. On Postgres a run is an orphan when its lease expired
 * (its worker stopped heartbeating) or its job was lost before any worker claimed it; with PGlite
 * (one process per data directory) every queued or running run not executing here is. Runs
 * `waiting` for a rate limit are not orphans: their resumption is scheduled. Returns the ids.
 */
export async function recoverInterruptedRuns(handle: DatabaseHandle): Promise<string[]> {
  const recovered: string[] = [];
  const interrupt = async (run: Pick<AgentRunRow, "id" | "appId">, guard?: RunFinishGuard) => {
    if (localExecutions().has(run.id)) return;
    if (await failInterrupted(handle, run, guard)) recovered.push(run.id);
  };
  if (handle.kind === "pglite") {
    for (const run of await listActiveRuns(handle.db))
      if (run.status !== "waiting") await interrupt(run);
    return recovered;
  }
  for (const run of await listRunsWithExpiredLease(handle.db))
    await interrupt(run, { leaseExpired: true });
  const stranded = await listStrandedRuns(handle.db, { leaseSeconds: leaseSeconds() });
  for (const run of (await listActiveRuns(handle.db)).filter((run) => stranded.includes(run.id)))
    await interrupt(run, { notExecuting: true });
  return recovered;
}

async function failInterrupted(
  handle: DatabaseHandle,
  run: Pick<AgentRunRow, "id" | "appId">,
  guard: RunFinishGuard | undefined,
): Promise<boolean> {
  const writer = await RunEventWriter.continuing(handle, run);
  return writer.finish(
    "run.failed",
    { code: runErrorCodes.interrupted, message: interruptedMessage },
    { status: "failed", errorCode: runErrorCodes.interrupted, errorMessage: interruptedMessage },
    { guard },
  );
}

const sweeperKey = Symbol.for("patchwork.runSweeper");
type GlobalWithSweeper = typeof globalThis & { [sweeperKey]?: NodeJS.Timeout };

/**
 * Recovers at start-up, and on Postgres keeps sweeping every third of a lease: any process on the
 * same database may die at any time, and its runs must not stay "running" forever.
 */
export async function startRunRecovery(
  handle: DatabaseHandle,
  intervalMs = (leaseSeconds() * 1000) / 3,
): Promise<void> {
  const recovered = await recoverInterruptedRuns(handle);
  if (recovered.length > 0)
    console.log(`[patchwork] marked ${recovered.length} interrupted run(s) as failed`);
  const holder = globalThis as GlobalWithSweeper;
  if (handle.kind !== "postgres" || holder[sweeperKey]) return;
  holder[sweeperKey] = setInterval(
    () => {
      recoverInterruptedRuns(handle)
        .then((ids) => {
          if (ids.length > 0)
            console.log(`[patchwork] marked ${ids.length} interrupted run(s) as failed`);
        })
        .catch((error) => logServerError("run recovery failed", error));
    },
    Math.max(500, intervalMs),
  );
  holder[sweeperKey].unref();
}
