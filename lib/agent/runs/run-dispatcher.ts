import "server-only";
import type { Runner } from "graphile-worker";
import { type DatabaseHandle, type Executor, perHandle } from "@/db/client";
import { claimRunLease, listRunsByStatus } from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import { getEnvironment } from "@/lib/env";
import { logServerError } from "@/lib/log";
import { finishCancelledBeforeStart, localExecutions, startRunExecution } from "./run-executor";
import { leaseSeconds, processLeaseOwner } from "./run-lease";
import { enqueueRunJob, startRunQueueWorker } from "./run-queue";

/**
 * Where runs execute. With PGlite (one process per data directory) they execute here, as soon as
 * they are created. With Postgres they are jobs on the queue, executed by whichever process runs a
 * worker (`PATCHWORK_ROLE` all or worker) — maybe this one, maybe another machine. Both answer the
 * same three calls, so the run service does not care which.
 */
export interface RunDispatcher {
  /** True when a created run starts in this process at once (it is stored already leased). */
  readonly inProcess: boolean;
  /** Inside the transaction creating or pausing the run: schedules it (now, or at `runAt`). */
  enqueue(transaction: Executor, input: { runId: string; runAt?: Date | null }): Promise<void>;
  /** After that transaction committed. */
  committed(run: AgentRunRow, input?: { runAt?: Date | null }): void;
}

/** Claims a queued or waiting run for this process and executes it; resolves when it ends or pauses. */
export async function executeRunById(handle: DatabaseHandle, runId: string): Promise<void> {
  if (localExecutions().has(runId)) return;
  const run = await claimRunLease(handle.db, {
    id: runId,
    owner: processLeaseOwner(),
    leaseSeconds: leaseSeconds(),
  });
  if (!run) return;
  if (run.cancelRequestedAt) {
    await finishCancelledBeforeStart(handle, run);
    return;
  }
  await startRunExecution(handle, run).done;
}

class InProcessDispatcher implements RunDispatcher {
  readonly inProcess = true;
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly handle: DatabaseHandle) {
    handle.onClose(async () => {
      for (const timer of this.timers.values()) clearTimeout(timer);
      this.timers.clear();
    });
  }

  async enqueue(): Promise<void> {}

  committed(run: AgentRunRow, { runAt }: { runAt?: Date | null } = {}): void {
    if (!runAt) {
      startRunExecution(this.handle, run);
      return;
    }
    this.schedule(run.id, runAt);
  }

  /** A timer stands in for the queue's scheduled job (one process owns a PGlite database). */
  schedule(runId: string, runAt: Date): void {
    clearTimeout(this.timers.get(runId));
    const timer = setTimeout(
      () => {
        this.timers.delete(runId);
        executeRunById(this.handle, runId).catch((error) =>
          logServerError(`could not resume run ${runId}`, error),
        );
      },
      Math.max(0, runAt.getTime() - Date.now()),
    );
    this.timers.set(runId, timer);
  }
}

class QueueDispatcher implements RunDispatcher {
  readonly inProcess = false;

  async enqueue(
    transaction: Executor,
    { runId, runAt }: { runId: string; runAt?: Date | null },
  ): Promise<void> {
    await enqueueRunJob(transaction, { runId, runAt });
  }

  // The queue's insert trigger notifies its workers when the transaction commits.
  committed(): void {}
}

const workerKey = Symbol.for("patchwork.runQueueWorker");
type GlobalWithWorker = typeof globalThis & {
  [workerKey]?: WeakMap<DatabaseHandle, Promise<Runner>>;
};

/** The process's dispatcher for a database (one, whichever module copy asks). */
export function getRunDispatcher(handle: DatabaseHandle): RunDispatcher {
  return perHandle<RunDispatcher>("runDispatcher", handle, () => {
    if (handle.kind === "pglite") return new InProcessDispatcher(handle);
    if (getEnvironment().PATCHWORK_ROLE !== "web") {
      // Runs created here are executed by the queue, which may as well start with this process.
      queueMicrotask(() =>
        startRunWorker(handle).catch((error) =>
          logServerError("could not start the run worker", error),
        ),
      );
    }
    return new QueueDispatcher();
  });
}

/**
 * Makes this process execute runs: on Postgres a queue worker (`PATCHWORK_WORKER_CONCURRENCY` at a
 * time); on PGlite the timers of runs waiting for a rate limit, lost when the process stopped.
 * Idempotent.
 */
export async function startRunWorker(handle: DatabaseHandle): Promise<void> {
  const dispatcher = getRunDispatcher(handle);
  if (dispatcher.inProcess) {
    for (const run of await listRunsByStatus(handle.db, { status: "waiting" }))
      (dispatcher as InProcessDispatcher).schedule(run.id, run.resumeAt ?? new Date());
    return;
  }
  const holder = globalThis as GlobalWithWorker;
  holder[workerKey] ??= new WeakMap();
  let runner = holder[workerKey].get(handle);
  if (!runner) {
    if (!handle.url) throw new Error("a queue worker needs the database's URL");
    runner = startRunQueueWorker({
      connectionString: handle.url,
      concurrency: getEnvironment().PATCHWORK_WORKER_CONCURRENCY,
      execute: (runId) => executeRunById(handle, runId),
    });
    holder[workerKey].set(handle, runner);
    handle.onClose(async () => {
      await stopRunWorker(handle);
    });
  }
  await runner;
}

/**
 * Stops taking runs. Runs executing here go on until they end; the caller decides how long to
 * wait (a run still going when the process exits is reclaimed as interrupted by its lease).
 */
export async function stopRunWorker(handle: DatabaseHandle): Promise<void> {
  const holder = globalThis as GlobalWithWorker;
  const runner = holder[workerKey]?.get(handle);
  if (!runner) return;
  holder[workerKey]?.delete(handle);
  await (await runner).stop().catch((error) => logServerError("run worker stop failed", error));
}
