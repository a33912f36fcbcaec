import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { agentRun, type CheckpointKind, type CheckpointRow, checkpoint } from "../schema";

export async function insertCheckpoint(
  db: Executor,
  values: {
    appId: string;
    revisionId: string;
    kind: CheckpointKind;
    runId?: string | null;
    label?: string;
  },
): Promise<CheckpointRow> {
  const [row] = await db.insert(checkpoint).values(values).returning();
  return row;
}

export async function getCheckpoint(
  db: Executor,
  { appId, id }: { appId: string; id: string },
): Promise<CheckpointRow | undefined> {
  const [row] = await db
    .select()
    .from(checkpoint)
    .where(and(eq(checkpoint.appId, appId), eq(checkpoint.id, id)));
  return row;
}

export async function listCheckpoints(
  db: Executor,
  { appId, limit = 200 }: { appId: string; limit?: number },
): Promise<CheckpointRow[]> {
  return db
    .select()
    .from(checkpoint)
    .where(eq(checkpoint.appId, appId))
    .orderBy(desc(checkpoint.createdAt), desc(checkpoint.id))
    .limit(limit);
}

/** Checkpoints with the first words of the run that made them, for the checkpoint list. */
export async function listCheckpointsWithRuns(
  db: Executor,
  { appId, limit = 200 }: { appId: string; limit?: number },
): Promise<(CheckpointRow & { run_input: string | null })[]> {
  const rows = await db
    .select({ checkpoint, runInput: agentRun.input })
    .from(checkpoint)
    .leftJoin(agentRun, eq(agentRun.id, checkpoint.runId))
    .where(eq(checkpoint.appId, appId))
    .orderBy(desc(checkpoint.createdAt), desc(checkpoint.id))
    .limit(limit);
  return rows.map((row) => ({
    ...row.checkpoint,
    run_input: row.runInput ? row.runInput.slice(0, 120) : null,
  }));
}

/**
 * Removes the checkpoint taken before a run that ended without changing anything: it would pin
 * the same files as the draft, and a list of identical checkpoints hides the useful ones.
 */
export async function deletePreRunCheckpoint(
  db: Executor,
  { runId }: { runId: string },
): Promise<void> {
  await db
    .delete(checkpoint)
    .where(and(eq(checkpoint.runId, runId), eq(checkpoint.kind, "pre_run")));
}
