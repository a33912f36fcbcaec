import "server-only";
import type { Executor } from "@/db/client";
import * as checkpointQueries from "@/db/queries/checkpoints";
import type { CheckpointKind, CheckpointRow, RevisionRow } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { restoreRevision } from "./commit-revision";
import { resolveRevision } from "./read-files";

/** Marks a revision as a checkpoint (before/after a run, or by hand); the revision stays as it is. */
export async function createCheckpoint(
  db: Executor,
  input: {
    appId: string;
    revisionId?: string | null;
    kind: CheckpointKind;
    runId?: string | null;
    label?: string;
  },
): Promise<CheckpointRow> {
  const revision = await resolveRevision(db, { appId: input.appId, revisionId: input.revisionId });
  return checkpointQueries.insertCheckpoint(db, {
    appId: input.appId,
    revisionId: revision.id,
    kind: input.kind,
    runId: input.runId ?? null,
    label: input.label ?? "",
  });
}

export async function listCheckpoints(
  db: Executor,
  { appId }: { appId: string },
): Promise<CheckpointRow[]> {
  return checkpointQueries.listCheckpoints(db, { appId });
}

/** Restores a checkpoint as a new forward revision; the history before it is kept. */
export async function restoreCheckpoint(
  db: Executor,
  { appId, checkpointId }: { appId: string; checkpointId: string },
): Promise<{ checkpoint: CheckpointRow; revision: RevisionRow }> {
  const checkpoint = await checkpointQueries.getCheckpoint(db, { appId, id: checkpointId });
  if (!checkpoint) {
    throw new PatchworkError("NOT_FOUND", "Checkpoint not found.", {
      details: { checkpoint_id: checkpointId },
    });
  }
  const label = checkpoint.label ? `"${checkpoint.label}"` : checkpoint.kind.replace("_", "-");
  const revision = await restoreRevision(db, {
    appId,
    revisionId: checkpoint.revisionId,
    message: `Restored checkpoint ${label}`,
  });
  return { checkpoint, revision };
}
