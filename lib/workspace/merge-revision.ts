import "server-only";
import { diff3Merge } from "node-diff3";
import type { Executor } from "@/db/client";
import { getRevision } from "@/db/queries/revisions";
import type { RevisionRow } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import {
  type CommitRevisionInput,
  commitDetachedRevision,
  commitRevision,
  getDraftRevision,
} from "./commit-revision";
import { decodeText } from "./content";
import type { FileChange } from "./file-changes";
import { normalizeWorkspacePath } from "./paths";
import { loadBlobs } from "./read-files";
import { loadManifest, type Manifest } from "./tree-store";

export interface LandRevisionResult {
  /** The revision the draft moved to, or null when the draft was left as it was. */
  draftRevision: RevisionRow | null;
  /** The run's own revision (parent = its base) when files conflicted; null otherwise. */
  separateRevision: RevisionRow | null;
  /** Files where both sides changed the same lines (or one deleted what the other changed). */
  conflicts: string[];
  /** Files the person had changed too, merged line by line with the run's edits. */
  merged: string[];
}

// Saves that race the merge move the draft again; a few retries cover any human typing speed.
const maximumAttempts = 5;

/**
 * Lands a set of changes made against `baseRevisionId` on whatever the draft is now. If the draft
 * moved meanwhile, every file both sides touched is merged three-way, line by line (base = the
 * changes' base). Where edits overlap, the changes still land whole as a separate revision whose
 * parent is the base, the draft keeps the person's version of those files and takes the rest.
 * Nothing is ever discarded.
 */
export async function landRevision(
  db: Executor,
  input: CommitRevisionInput & { baseRevisionId: string },
): Promise<LandRevisionResult> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await attemptLanding(db, input);
    } catch (error) {
      // A moved head is worth another try; a run that already ended (run_status) is final.
      const raced =
        PatchworkError.isInstance(error) &&
        error.code === "REVISION_CONFLICT" &&
        !(error.details as { run_status?: unknown } | undefined)?.run_status;
      if (!raced || attempt >= maximumAttempts) throw error;
    }
  }
}

async function attemptLanding(
  db: Executor,
  input: CommitRevisionInput & { baseRevisionId: string },
): Promise<LandRevisionResult> {
  const head = await getDraftRevision(db, { appId: input.appId });
  if (head.id === input.baseRevisionId) {
    const { revision, created } = await commitRevision(db, input);
    return {
      draftRevision: created ? revision : null,
      separateRevision: null,
      conflicts: [],
      merged: [],
    };
  }
  const base = await getRevision(db, { appId: input.appId, id: input.baseRevisionId });
  if (!base)
    throw new PatchworkError("NOT_FOUND", "The base revision of these changes is gone.", {
      details: { revision_id: input.baseRevisionId },
    });
  const [baseManifest, headManifest] = await Promise.all([
    loadManifest(db, base.rootTreeHash),
    loadManifest(db, head.rootTreeHash),
  ]);
  const reader = contentReader(db, baseManifest, headManifest);
  const onHead: FileChange[] = [];
  const conflicts: string[] = [];
  const merged: string[] = [];
  for (const change of await flattenRenames(db, input.changes, baseManifest)) {
    const path = normalizeWorkspacePath(change.path);
    const baseEntry = baseManifest.get(path);
    const headEntry = headManifest.get(path);
    // The person did not touch this file: the run's change applies as it is.
    if (baseEntry?.hash === headEntry?.hash) {
      onHead.push(change);
      continue;
    }
    if (change.type === "delete") {
      if (headEntry) conflicts.push(path);
      continue;
    }
    const theirs = await reader.head(path);
    const ours = typeof change.content === "string" ? change.content : decodeText(change.content);
    if (theirs !== undefined && ours !== null && theirs === ours) continue;
    const original = await reader.base(path);
    if (ours === null || theirs === undefined || theirs === null || original === null) {
      conflicts.push(path);
      continue;
    }
    const result = mergeText(ours, original ?? "", theirs);
    if (result === null) conflicts.push(path);
    else {
      merged.push(path);
      onHead.push({ type: "write", path, content: result });
    }
  }
  const commitOnHead = async () => {
    const { revision, created } = await commitRevision(db, {
      ...input,
      baseRevisionId: head.id,
      changes: onHead,
    });
    return created ? revision : null;
  };
  if (conflicts.length === 0)
    return { draftRevision: await commitOnHead(), separateRevision: null, conflicts, merged };
  const separate = await commitDetachedRevision(db, {
    ...input,
    message:
      `${input.message ?? ""} (kept separately: ${conflicts.length} conflicting file${conflicts.length === 1 ? "" : "s"})`.trim(),
  });
  return {
    draftRevision: onHead.length > 0 ? await commitOnHead() : null,
    separateRevision: separate.revision,
    conflicts,
    merged,
  };
}

/**
 * Merges two edits of one text line by line against their common original; null when they
 * changed the same lines differently.
 */
export function mergeText(ours: string, original: string, theirs: string): string | null {
  const regions = diff3Merge(ours.split("\n"), original.split("\n"), theirs.split("\n"));
  const lines: string[] = [];
  for (const region of regions) {
    if (!region.ok) return null;
    lines.push(...region.ok);
  }
  return lines.join("\n");
}

// A rename is a delete of the old path and a write of its content at the new one, so each side
// of it merges like any other edit.
async function flattenRenames(
  db: Executor,
  changes: FileChange[],
  baseManifest: Manifest,
): Promise<Array<Exclude<FileChange, { type: "rename" }>>> {
  const flat: Array<Exclude<FileChange, { type: "rename" }>> = [];
  const written = new Map<string, Uint8Array | string>();
  for (const change of changes) {
    if (change.type !== "rename") {
      flat.push(change);
      if (change.type === "write") written.set(change.path, change.content);
      continue;
    }
    let content = written.get(change.from);
    if (content === undefined) {
      const entry = baseManifest.get(change.from);
      if (!entry)
        throw new PatchworkError("NOT_FOUND", `${change.from} does not exist in this revision.`);
      content = (await loadBlobs(db, [entry.hash])).get(entry.hash)!;
    }
    flat.push({ type: "delete", path: change.from });
    flat.push({ type: "write", path: change.to, content });
  }
  return flat;
}

function contentReader(db: Executor, baseManifest: Manifest, headManifest: Manifest) {
  const read = async (manifest: Manifest, path: string): Promise<string | null | undefined> => {
    const entry = manifest.get(path);
    if (!entry) return undefined;
    const bytes = (await loadBlobs(db, [entry.hash])).get(entry.hash);
    return bytes ? decodeText(bytes) : null;
  };
  return {
    /** The file's text in the base: undefined when absent, null when binary. */
    base: (path: string) => read(baseManifest, path),
    head: (path: string) => read(headManifest, path),
  };
}
