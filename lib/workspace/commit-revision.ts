import "server-only";
import type { Executor } from "@/db/client";
import { getAppById, getAppForUpdate, updateApp } from "@/db/queries/apps";
import { insertBlobs } from "@/db/queries/blobs";
import { getRevision, insertRevision } from "@/db/queries/revisions";
import { activeRunStatuses, getRunStatusForUpdate } from "@/db/queries/runs";
import { insertTrees } from "@/db/queries/trees";
import type { RevisionRow, RevisionSource } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { sha256Hex, toBytes } from "./content";
import type { FileChange } from "./file-changes";
import { assertAppTotals, assertFileSize } from "./limits";
import { normalizeWorkspacePath } from "./paths";
import { lookupPath, type ManifestEntry, rewriteTree } from "./tree-store";

export interface CommitRevisionInput {
  appId: string;
  /** The revision the changes were made against; null only for an app's first revision. */
  baseRevisionId: string | null;
  changes: FileChange[];
  source: RevisionSource;
  message?: string;
  runId?: string | null;
}

export interface CommitRevisionResult {
  revision: RevisionRow;
  /** False when the changes left every file as it was: no revision is added then. */
  created: boolean;
}

/**
 * Turns a set of writes, deletes and renames against a base revision into one new immutable
 * revision and moves the app's draft head to it — all in one transaction. A base that is no
 * longer the head answers REVISION_CONFLICT; nothing is stored unless everything succeeds.
 */
export function commitRevision(
  db: Executor,
  input: CommitRevisionInput,
): Promise<CommitRevisionResult> {
  return commitInAppTransaction(db, input, async (transaction, app, writes) => {
    if (app.draftRevisionId !== input.baseRevisionId) {
      throw new PatchworkError(
        "REVISION_CONFLICT",
        "The draft changed since this edit started; reload the file and apply the edit again.",
        {
          details: {
            base_revision_id: input.baseRevisionId,
            draft_revision_id: app.draftRevisionId,
          },
        },
      );
    }
    const built = await buildRevision(transaction, input, writes);
    if (!built.created) return built;
    await updateApp(transaction, { id: input.appId, draftRevisionId: built.revision.id });
    return built;
  });
}

/**
 * Stores the changes as a revision whose parent is the given base without moving the draft head:
 * how a run whose edits conflict with the person's still lands, to be opened as a diff or restored.
 */
export function commitDetachedRevision(
  db: Executor,
  input: CommitRevisionInput & { baseRevisionId: string },
): Promise<CommitRevisionResult> {
  return commitInAppTransaction(db, input, (transaction, _app, writes) =>
    buildRevision(transaction, input, writes),
  );
}

/**
 * What every commit shares: the blobs stored first, then a transaction holding the app's row
 * (and, for a run's commit, refusing a run that already ended) around `body`.
 */
async function commitInAppTransaction(
  db: Executor,
  input: CommitRevisionInput,
  body: (
    transaction: Executor,
    app: NonNullable<Awaited<ReturnType<typeof getAppForUpdate>>>,
    writes: PreparedWrite[],
  ) => Promise<CommitRevisionResult>,
): Promise<CommitRevisionResult> {
  const writes = prepareWrites(input.changes);
  // Blobs are content-addressed and idempotent, so storing them before the transaction is safe
  // (an aborted commit leaves only unreferenced bytes) and keeps the transaction short.
  await insertBlobs(db, {
    blobs: [...new Map(writes.map((write) => [write.hash, write])).values()],
  });
  return db.transaction(async (transaction) => {
    const app = await getAppForUpdate(transaction, { id: input.appId });
    if (!app)
      throw new PatchworkError("NOT_FOUND", "App not found.", { details: { app_id: input.appId } });
    if (input.runId) await assertRunStillActive(transaction, input.runId);
    return body(transaction, app, writes);
  });
}

async function buildRevision(
  transaction: Executor,
  input: CommitRevisionInput,
  writes: PreparedWrite[],
): Promise<CommitRevisionResult> {
  const base = input.baseRevisionId
    ? await getRevision(transaction, { appId: input.appId, id: input.baseRevisionId })
    : undefined;
  const baseRoot = base?.rootTreeHash ?? null;
  const pathChanges = await resolveChanges(transaction, baseRoot, input.changes, writes);
  const rewrite = await rewriteTree(transaction, baseRoot, pathChanges);
  if (base && rewrite.rootHash === base.rootTreeHash) return { revision: base, created: false };
  assertAppTotals({ files: rewrite.files, size: rewrite.size });
  await insertTrees(transaction, { trees: rewrite.newTrees });
  const revision = await insertRevision(transaction, {
    appId: input.appId,
    parentRevisionId: input.baseRevisionId,
    rootTreeHash: rewrite.rootHash,
    fileCount: rewrite.files,
    totalSize: rewrite.size,
    source: input.source,
    runId: input.runId ?? null,
    message: input.message ?? "",
  });
  return { revision, created: true };
}

/**
 * Makes a new head revision whose files equal an earlier revision's. History is never rewritten:
 * the restored state is a new forward revision, and it shares the old tree, so it costs O(1).
 */
/**
 * A run already ended by someone else (a sweeper, a cancel) must never land its overlay later:
 * the run row stays locked until the draft head has moved, so the two cannot interleave.
 */
async function assertRunStillActive(transaction: Executor, runId: string): Promise<void> {
  const status = await getRunStatusForUpdate(transaction, { id: runId });
  if (status && (activeRunStatuses as readonly string[]).includes(status)) return;
  throw new PatchworkError(
    "REVISION_CONFLICT",
    "This run was already ended, so its changes were not saved.",
    { details: { run_id: runId, run_status: status ?? null } },
  );
}

export async function restoreRevision(
  db: Executor,
  input: { appId: string; revisionId: string; message?: string },
): Promise<RevisionRow> {
  return db.transaction(async (transaction) => {
    const app = await getAppForUpdate(transaction, { id: input.appId });
    if (!app) throw new PatchworkError("NOT_FOUND", "App not found.");
    const target = await getRevision(transaction, { appId: input.appId, id: input.revisionId });
    if (!target)
      throw new PatchworkError("NOT_FOUND", "Revision not found.", {
        details: { revision_id: input.revisionId },
      });
    const revision = await insertRevision(transaction, {
      appId: input.appId,
      parentRevisionId: app.draftRevisionId,
      rootTreeHash: target.rootTreeHash,
      fileCount: target.fileCount,
      totalSize: target.totalSize,
      source: "restore",
      message: input.message ?? `Restored revision ${target.id.slice(0, 8)}`,
    });
    await updateApp(transaction, { id: input.appId, draftRevisionId: revision.id });
    return revision;
  });
}

/** The app's current draft revision, or NOT_FOUND. */
export async function getDraftRevision(
  db: Executor,
  { appId }: { appId: string },
): Promise<RevisionRow> {
  const app = await getAppById(db, { id: appId });
  if (!app) throw new PatchworkError("NOT_FOUND", "App not found.", { details: { app_id: appId } });
  if (!app.draftRevisionId) throw new PatchworkError("NOT_FOUND", "This app has no files yet.");
  const revision = await getRevision(db, { appId, id: app.draftRevisionId });
  if (!revision)
    throw new Error(`Draft revision ${app.draftRevisionId} of app ${appId} is missing`);
  return revision;
}

interface PreparedWrite {
  path: string;
  hash: string;
  bytes: Uint8Array;
  size: number;
}

function prepareWrites(changes: FileChange[]): PreparedWrite[] {
  const writes: PreparedWrite[] = [];
  for (const change of changes) {
    if (change.type !== "write") continue;
    const path = normalizeWorkspacePath(change.path);
    const bytes = toBytes(change.content);
    assertFileSize(path, bytes.byteLength);
    writes.push({ path, hash: sha256Hex(bytes), bytes, size: bytes.byteLength });
  }
  return writes;
}

async function resolveChanges(
  db: Executor,
  baseRoot: string | null,
  changes: FileChange[],
  writes: PreparedWrite[],
): Promise<Map<string, ManifestEntry | null>> {
  const result = new Map<string, ManifestEntry | null>();
  let writeIndex = 0;
  // A later change to the same path wins, and a change sees the earlier changes of the same set.
  const current = async (path: string): Promise<ManifestEntry | null | undefined> => {
    if (result.has(path)) return result.get(path);
    if (!baseRoot) return undefined;
    const entry = await lookupPath(db, baseRoot, path);
    if (entry?.type === "directory") {
      throw new PatchworkError("VALIDATION_FAILED", `${path} is a directory.`, {
        details: { path },
      });
    }
    return entry ? { hash: entry.hash, size: entry.size } : undefined;
  };
  for (const change of changes) {
    if (change.type === "write") {
      const write = writes[writeIndex++];
      result.set(write.path, { hash: write.hash, size: write.size });
    } else if (change.type === "delete") {
      const path = normalizeWorkspacePath(change.path);
      if (!(await current(path))) throw missingFile(path);
      result.set(path, null);
    } else {
      const from = normalizeWorkspacePath(change.from);
      const to = normalizeWorkspacePath(change.to);
      const entry = await current(from);
      if (!entry) throw missingFile(from);
      if (from === to) continue;
      if (await current(to)) {
        throw new PatchworkError(
          "VALIDATION_FAILED",
          `Cannot rename onto ${to}: it already exists.`,
          {
            details: { path: to },
          },
        );
      }
      result.set(from, null);
      result.set(to, entry);
    }
  }
  return result;
}

function missingFile(path: string): PatchworkError {
  return new PatchworkError("NOT_FOUND", `${path} does not exist in this revision.`, {
    details: { path },
  });
}
