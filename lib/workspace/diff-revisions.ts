import "server-only";
import { structuredPatch } from "diff";
import type { Executor } from "@/db/client";
import { decodeText } from "./content";
import { loadBlobs, resolveRevision } from "./read-files";
import { loadManifest } from "./tree-store";

export interface FileDiff {
  path: string;
  status: "added" | "modified" | "deleted";
  binary: boolean;
  additions: number;
  deletions: number;
  /** A unified diff of this one file (empty for binary files). */
  patch: string;
}

export interface RevisionDiff {
  from_revision_id: string | null;
  to_revision_id: string;
  files: FileDiff[];
  additions: number;
  deletions: number;
}

/**
 * Per-file unified diffs between two revisions of an app. `againstRevisionId` defaults to the
 * revision's parent (what that revision changed); with no parent, every file is an addition.
 */
export async function diffRevisions(
  db: Executor,
  input: { appId: string; revisionId: string; againstRevisionId?: string | null },
): Promise<RevisionDiff> {
  const to = await resolveRevision(db, { appId: input.appId, revisionId: input.revisionId });
  const fromId = input.againstRevisionId ?? to.parentRevisionId;
  const from = fromId
    ? await resolveRevision(db, { appId: input.appId, revisionId: fromId })
    : null;
  const before = from ? await loadManifest(db, from.rootTreeHash) : new Map();
  const after =
    from?.rootTreeHash === to.rootTreeHash ? before : await loadManifest(db, to.rootTreeHash);

  const changed: { path: string; beforeHash?: string; afterHash?: string }[] = [];
  for (const [path, entry] of after) {
    const previous = before.get(path);
    if (!previous || previous.hash !== entry.hash)
      changed.push({ path, beforeHash: previous?.hash, afterHash: entry.hash });
  }
  for (const [path, entry] of before)
    if (!after.has(path)) changed.push({ path, beforeHash: entry.hash });
  changed.sort((left, right) => left.path.localeCompare(right.path));

  const hashes = changed.flatMap((change) =>
    [change.beforeHash, change.afterHash].filter((hash): hash is string => !!hash),
  );
  const blobs = await loadBlobs(db, hashes);
  const files = changed.map((change) =>
    diffFile(
      change.path,
      change.beforeHash ? blobs.get(change.beforeHash)! : null,
      change.afterHash ? blobs.get(change.afterHash)! : null,
    ),
  );
  return {
    from_revision_id: from?.id ?? null,
    to_revision_id: to.id,
    files,
    additions: files.reduce((sum, file) => sum + file.additions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
  };
}

/** Diffs one file's bytes; either side may be absent (added or deleted). */
export function diffFile(
  path: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
): FileDiff {
  const status = before === null ? "added" : after === null ? "deleted" : "modified";
  const beforeText = before === null ? "" : decodeText(before);
  const afterText = after === null ? "" : decodeText(after);
  if (beforeText === null || afterText === null) {
    return { path, status, binary: true, additions: 0, deletions: 0, patch: "" };
  }
  const structured = structuredPatch(
    before === null ? "/dev/null" : `a/${path}`,
    after === null ? "/dev/null" : `b/${path}`,
    beforeText,
    afterText,
    "",
    "",
    { context: 3 },
  );
  let additions = 0;
  let deletions = 0;
  const lines = [`--- ${structured.oldFileName}`, `+++ ${structured.newFileName}`];
  for (const hunk of structured.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions += 1;
      else if (line.startsWith("-")) deletions += 1;
      lines.push(line);
    }
  }
  return { path, status, binary: false, additions, deletions, patch: `${lines.join("\n")}\n` };
}
