import "server-only";
import { sql } from "drizzle-orm";
import { Logger, type Runner, run as runGraphileWorker } from "graphile-worker";
import type { Executor } from "@/db/client";
import { logServerError } from "@/lib/log";
import { redactSecrets } from "@/lib/redact-secrets";

/**
 * The Postgres job queue runs go through (graphile-worker; docs/DECISIONS.md says why). A run is a
 * job whose key is the run's id, added in the same transaction that creates (or pauses) the run,
 * so a run exists exactly when its job does. Retries are off (`max_attempts` 1): a run that died
 * mid-way is reported interrupted, never silently started again with half its events written.
 */
export const runTaskName = "patchwork_run";

export async function enqueueRunJob(
  transaction: Executor,
  { runId, runAt }: { runId: string; runAt?: Date | null },
): Promise<void> {
  await transaction.execute(
    sql`select graphile_worker.add_job(${runTaskName}, json_build_object('run_id', ${runId}::text), run_at => ${runAt?.toISOString() ?? null}::timestamptz, max_attempts => 1, job_key => ${runId}::text)`,
  );
}

/** Takes a queued or waiting run's job out of the queue (a cancel); harmless if it is gone. */
export async function removeRunJob(
  transaction: Executor,
  { runId }: { runId: string },
): Promise<void> {
  await transaction.execute(sql`select graphile_worker.remove_job(${runId}::text)`);
}

/**
 * Queued or waiting runs nobody will ever execute: their job is gone (a job ends only after its
 * run was claimed) or a worker locked it longer ago than a lease and never claimed the run (it died
 * between the two). Answers their ids.
 */
export async function listStrandedRuns(
  transaction: Executor,
  { leaseSeconds }: { leaseSeconds: number },
): Promise<string[]> {
  const result = await transaction.execute<{ id: string }>(sql`
    select run.id from agent_run run
    where run.status in ('queued', 'waiting') and run.lease_owner is null
      and run.created_at < now() - interval '5 seconds'
      and not exists (
        select 1 from graphile_worker._private_jobs job
        where job.key = run.id::text
          and (job.locked_at is null or job.locked_at > now() - ${leaseSeconds} * interval '1 second')
      )`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

function rowsOf<Row>(result: unknown): Row[] {
  // postgres.js answers an array; PGlite's drizzle driver `{rows}`.
  return Array.isArray(result) ? (result as Row[]) : ((result as { rows: Row[] }).rows ?? []);
}

/** Errors and warnings only, without secrets: graphile-worker logs every job at info level. */
const queueLogger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning")
    console.error(`[patchwork] job queue ${level}: ${redactSecrets(message)}`);
});

/**
 * Starts executing queued runs in this process, `concurrency` at a time. `execute` resolves when
 * the run has ended or paused; it must not throw (a thrown job would be kept as failed).
 */
export function startRunQueueWorker({
  connectionString,
  concurrency,
  execute,
}: {
  connectionString: string;
  concurrency: number;
  execute: (runId: string) => Promise<void>;
}): Promise<Runner> {
  return runGraphileWorker({
    connectionString,
    concurrency,
    // One pooled connection per job in flight, plus LISTEN and the queue's own housekeeping.
    maxPoolSize: concurrency + 2,
    noHandleSignals: true,
    // New jobs arrive by LISTEN/NOTIFY at once; polling only catches scheduled ones coming due.
    pollInterval: 1000,
    logger: queueLogger,
    taskList: {
      [runTaskName]: async (payload) => {
        const runId = (payload as { run_id?: unknown } | null)?.run_id;
        if (typeof runId !== "string") return;
        await execute(runId).catch((error) =>
          logServerError(`queued run ${runId} could not be executed`, error),
        );
      },
    },
  });
}
