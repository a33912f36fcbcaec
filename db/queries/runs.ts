import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import type { Executor } from "../client";
import {
  type AgentRunRow,
  agentRun,
  type NewAgentRunRow,
  type RunEventRow,
  runEvent,
} from "../schema";

export const activeRunStatuses = ["queued", "running", "waiting"] as const;

export async function insertRun(db: Executor, values: NewAgentRunRow): Promise<AgentRunRow> {
  const [row] = await db.insert(agentRun).values(values).returning();
  return row;
}

/** Locks a run's row and answers its status, so a commit can refuse a run that was ended meanwhile. */
export async function getRunStatusForUpdate(
  db: Executor,
  { id }: { id: string },
): Promise<AgentRunRow["status"] | undefined> {
  const [row] = await db
    .select({ status: agentRun.status })
    .from(agentRun)
    .where(eq(agentRun.id, id))
    .for("update");
  return row?.status;
}

export async function getRunById(
  db: Executor,
  { id }: { id: string },
): Promise<AgentRunRow | undefined> {
  const [row] = await db.select().from(agentRun).where(eq(agentRun.id, id));
  return row;
}

export async function getAppRun(
  db: Executor,
  { appId, id }: { appId: string; id: string },
): Promise<AgentRunRow | undefined> {
  const [row] = await db
    .select()
    .from(agentRun)
    .where(and(eq(agentRun.appId, appId), eq(agentRun.id, id)));
  return row;
}

export async function getActiveRunForApp(
  db: Executor,
  { appId }: { appId: string },
): Promise<AgentRunRow | undefined> {
  const [row] = await db
    .select()
    .from(agentRun)
    .where(and(eq(agentRun.appId, appId), inArray(agentRun.status, [...activeRunStatuses])));
  return row;
}

export async function listRunsForApp(
  db: Executor,
  { appId, limit = 100 }: { appId: string; limit?: number },
): Promise<AgentRunRow[]> {
  const rows = await db
    .select()
    .from(agentRun)
    .where(eq(agentRun.appId, appId))
    .orderBy(desc(agentRun.createdAt), desc(agentRun.id))
    .limit(limit);
  return rows.reverse();
}

export async function listActiveRuns(db: Executor): Promise<AgentRunRow[]> {
  return db
    .select()
    .from(agentRun)
    .where(inArray(agentRun.status, [...activeRunStatuses]));
}

export async function updateRun(
  db: Executor,
  { id, ...values }: Partial<Omit<AgentRunRow, "id">> & { id: string },
): Promise<AgentRunRow | undefined> {
  const [row] = await db.update(agentRun).set(values).where(eq(agentRun.id, id)).returning();
  return row;
}

/**
 * Sets a run's final state only if it is still active, returning whether it was. Two writers can
 * never both end a run (e.g. recovery and a slow executor): the second one finds nothing to update.
 */
export async function finishRunIfActive(
  db: Executor,
  {
    id,
    guard,
    ...values
  }: Partial<Omit<AgentRunRow, "id">> & { id: string; guard?: RunFinishGuard },
): Promise<{ resultRevisionId: string | null } | null> {
  const [row] = await db
    .update(agentRun)
    .set({ leaseOwner: null, leaseExpiresAt: null, resumeAt: null, ...values })
    .where(
      and(
        eq(agentRun.id, id),
        inArray(agentRun.status, [...activeRunStatuses]),
        guard ? runGuardCondition(guard) : undefined,
      ),
    )
    .returning({ resultRevisionId: agentRun.resultRevisionId });
  return row ?? null;
}

/**
 * Who may end a run: its lease owner (the executing process), anyone once its lease has expired
 * (the sweeper), or anyone while nobody executes it (a cancel of a queued or waiting run).
 */
export type RunFinishGuard =
  | { leaseOwner: string }
  | { leaseExpired: true }
  | { notExecuting: true };

function runGuardCondition(guard: RunFinishGuard) {
  if ("leaseOwner" in guard) return eq(agentRun.leaseOwner, guard.leaseOwner);
  if ("leaseExpired" in guard) return leaseExpiredCondition;
  return sql`(${agentRun.status} in ('queued', 'waiting') and ${agentRun.leaseOwner} is null)`;
}

/**
 * Takes a queued or waiting run for this process: `running`, with a lease that ends unless renewed.
 * Null when the run is gone, finished, or executing elsewhere. Times are the database's, so
 * processes on machines whose clocks disagree still agree on who holds a lease.
 */
export async function claimRunLease(
  db: Executor,
  { id, owner, leaseSeconds }: { id: string; owner: string; leaseSeconds: number },
): Promise<AgentRunRow | null> {
  const [row] = await db
    .update(agentRun)
    .set({
      status: "running",
      leaseOwner: owner,
      leaseExpiresAt: sql`now() + ${leaseSeconds} * interval '1 second'`,
      startedAt: sql`coalesce(${agentRun.startedAt}, now())`,
      resumeAt: null,
    })
    .where(
      and(
        eq(agentRun.id, id),
        sql`(${agentRun.status} in ('queued', 'waiting') or (${agentRun.status} = 'running' and ${agentRun.leaseOwner} is null))`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Extends the leases this process still holds; answers the ids it still holds. */
export async function renewRunLeases(
  db: Executor,
  { ids, owner, leaseSeconds }: { ids: string[]; owner: string; leaseSeconds: number },
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(agentRun)
    .set({ leaseExpiresAt: sql`now() + ${leaseSeconds} * interval '1 second'` })
    .where(
      and(
        inArray(agentRun.id, ids),
        eq(agentRun.leaseOwner, owner),
        eq(agentRun.status, "running"),
      ),
    )
    .returning({ id: agentRun.id });
  return rows.map((row) => row.id);
}

/**
 * A running run whose executing process stopped renewing its lease — or, started by a version
 * before leases, has none and has been running for longer than an hour.
 */
const leaseExpiredCondition = sql`(${agentRun.status} = 'running' and (${agentRun.leaseExpiresAt} < now() or (${agentRun.leaseExpiresAt} is null and ${agentRun.startedAt} < now() - interval '1 hour')))`;

export async function listRunsWithExpiredLease(db: Executor): Promise<AgentRunRow[]> {
  return db.select().from(agentRun).where(leaseExpiredCondition);
}

/** Pauses a run at a rate limit: `waiting` until `resumeAt`, its work so far kept as a revision. */
export async function pauseRun(
  db: Executor,
  {
    id,
    owner,
    resumeAt,
    pausedRevisionId,
  }: { id: string; owner: string; resumeAt: Date; pausedRevisionId: string | null },
): Promise<boolean> {
  const rows = await db
    .update(agentRun)
    .set({ status: "waiting", leaseOwner: null, leaseExpiresAt: null, resumeAt, pausedRevisionId })
    .where(and(eq(agentRun.id, id), eq(agentRun.status, "running"), eq(agentRun.leaseOwner, owner)))
    .returning({ id: agentRun.id });
  return rows.length === 1;
}

/** Marks a cancel request once; returns the run whether or not it was already marked. */
export async function requestRunCancel(db: Executor, { id }: { id: string }): Promise<void> {
  await db
    .update(agentRun)
    .set({ cancelRequestedAt: new Date() })
    .where(and(eq(agentRun.id, id), isNull(agentRun.cancelRequestedAt)));
}

export async function insertRunEvent(
  db: Executor,
  values: { runId: string; seq: number; type: string; payload: Record<string, unknown> },
): Promise<RunEventRow> {
  const [row] = await db.insert(runEvent).values(values).returning();
  return row;
}

/** Inserts events and answers them as stored (the events written with a run's transaction). */
export async function insertRunEventRows(
  db: Executor,
  values: { runId: string; seq: number; type: string; payload: Record<string, unknown> }[],
): Promise<RunEventRow[]> {
  if (values.length === 0) return [];
  return db.insert(runEvent).values(values).returning();
}

export async function listRunsByStatus(
  db: Executor,
  { status }: { status: AgentRunRow["status"] },
): Promise<AgentRunRow[]> {
  return db.select().from(agentRun).where(eq(agentRun.status, status));
}

export async function listEventsAfter(
  db: Executor,
  { runId, seq, limit = 1000 }: { runId: string; seq: number; limit?: number },
): Promise<RunEventRow[]> {
  return db
    .select()
    .from(runEvent)
    .where(and(eq(runEvent.runId, runId), gt(runEvent.seq, seq)))
    .orderBy(asc(runEvent.seq))
    .limit(limit);
}

export async function getLastEventSeq(db: Executor, { runId }: { runId: string }): Promise<number> {
  const [row] = await db
    .select({ seq: sql<number>`coalesce(max(${runEvent.seq}), 0)::int` })
    .from(runEvent)
    .where(eq(runEvent.runId, runId));
  return Number(row?.seq ?? 0);
}

/** Tool events of many runs, to summarise earlier turns of the conversation. */
export async function listToolEventsForRuns(
  db: Executor,
  { runIds }: { runIds: string[] },
): Promise<RunEventRow[]> {
  if (runIds.length === 0) return [];
  return db
    .select()
    .from(runEvent)
    .where(
      and(
        inArray(runEvent.runId, runIds),
        inArray(runEvent.type, ["tool.completed", "tool.failed"]),
      ),
    )
    .orderBy(asc(runEvent.runId), asc(runEvent.seq));
}

/**
 * Appends several events in one statement (group commit of a fast stream). The caller stamps
 * `createdAt`, so nothing needs to come back: the rows are exactly what was sent.
 */
export async function insertRunEvents(
  db: Executor,
  { events }: { events: RunEventRow[] },
): Promise<void> {
  if (events.length === 0) return;
  // The rows travel as one JSON parameter: drizzle's builder checks and maps every value of a
  // multi-row insert, which with twenty runs streaming was ~7% of the server's CPU, and the
  // statement's text no longer changes with the number of rows.
  const rows = JSON.stringify(
    events.map((event) => ({
      run_id: event.runId,
      seq: event.seq,
      type: event.type,
      payload: event.payload,
      created_at: event.createdAt.toISOString(),
    })),
  );
  await db.execute(sql`
    insert into run_event (run_id, seq, type, payload, created_at)
    select run_id, seq, type, payload, created_at
    from jsonb_to_recordset(${rows}::jsonb)
      as row(run_id uuid, seq integer, type text, payload jsonb, created_at timestamptz)`);
}

/** Runs that are over but still have an engine process recorded (left by a dead server). */
export async function listFinishedRunsWithEnginePid(db: Executor): Promise<AgentRunRow[]> {
  return db
    .select()
    .from(agentRun)
    .where(and(isNotNull(agentRun.enginePid), notInArray(agentRun.status, [...activeRunStatuses])));
}
