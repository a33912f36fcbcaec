import "server-only";
import type { Executor } from "@/db/client";
import { getBlobsByHashes } from "@/db/queries/blobs";
import { getRevision } from "@/db/queries/revisions";
import type { RevisionRow } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { getDraftRevision } from "./commit-revision";
import { decodeText } from "./content";
import { LruCache } from "./lru-cache";
import { normalizeWorkspacePath } from "./paths";
import { loadManifest, lookupPath, type Manifest } from "./tree-store";

// Blobs never change once written; 64 MiB of hot file bytes keeps preview builds off the database.
const blobCache = new LruCache<string, Uint8Array>(64 * 1024 * 1024, (bytes) => bytes.byteLength);

/** Loads blob bytes by hash, caching them; throws if the store lost one (it never should). */
export async function loadBlobs(db: Executor, hashes: string[]): Promise<Map<string, Uint8Array>> {
  const result = new Map<string, Uint8Array>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const cached = blobCache.get(hash);
    if (cached) result.set(hash, cached);
    else missing.push(hash);
  }
  for (let start = 0; start < missing.length; start += 500) {
    const found = await getBlobsByHashes(db, { hashes: missing.slice(start, start + 500) });
    for (const [hash, bytes] of found) {
      blobCache.set(hash, bytes);
      result.set(hash, bytes);
    }
  }
  for (const hash of hashes)
    if (!result.has(hash)) throw new Error(`Blob ${hash} is missing from the store`);
  return result;
}

/** A revision of the app: the given one, or the draft head when no id is given. */
export async function resolveRevision(
  db: Executor,
  { appId, revisionId }: { appId: string; revisionId?: string | null },
): Promise<RevisionRow> {
  if (!revisionId) return getDraftRevision(db, { appId });
  const revision = await getRevision(db, { appId, id: revisionId });
  if (!revision) {
    throw new PatchworkError("NOT_FOUND", "Revision not found.", {
      details: { revision_id: revisionId },
    });
  }
  return revision;
}

export interface FileListing {
  revision_id: string;
  files: { path: string; size: number; hash: string }[];
}

export async function listFiles(
  db: Executor,
  input: { appId: string; revisionId?: string | null },
): Promise<FileListing> {
  const revision = await resolveRevision(db, input);
  const manifest = await loadManifest(db, revision.rootTreeHash);
  const files = [...manifest]
    .map(([path, entry]) => ({ path, size: entry.size, hash: entry.hash }))
    .sort((left, right) => left.path.localeCompare(right.path));
  return { revision_id: revision.id, files };
}

export interface FileContent {
  path: string;
  revision_id: string;
  hash: string;
  size: number;
  binary: boolean;
  /** UTF-8 text, or null for binary files. */
  content: string | null;
  bytes: Uint8Array;
}

export async function readFile(
  db: Executor,
  input: { appId: string; revisionId?: string | null; path: string },
): Promise<FileContent> {
  const path = normalizeWorkspacePath(input.path);
  const revision = await resolveRevision(db, input);
  const entry = await lookupPath(db, revision.rootTreeHash, path);
  if (!entry || entry.type !== "file") {
    throw new PatchworkError("NOT_FOUND", `${path} does not exist in this revision.`, {
      details: { path },
    });
  }
  const bytes = (await loadBlobs(db, [entry.hash])).get(entry.hash)!;
  const content = decodeText(bytes);
  return {
    path,
    revision_id: revision.id,
    hash: entry.hash,
    size: entry.size,
    binary: content === null,
    content,
    bytes,
  };
}

/** Every file of a revision with its bytes — what the preview bundler and engines read. */
export async function readAllFiles(
  db: Executor,
  input: { appId: string; revisionId?: string | null },
): Promise<{ revision: RevisionRow; manifest: Manifest; files: Map<string, Uint8Array> }> {
  const revision = await resolveRevision(db, input);
  const manifest = await loadManifest(db, revision.rootTreeHash);
  const blobs = await loadBlobs(
    db,
    [...manifest.values()].map((entry) => entry.hash),
  );
  const files = new Map<string, Uint8Array>();
  for (const [path, entry] of manifest) files.set(path, blobs.get(entry.hash)!);
  return { revision, manifest, files };
}
