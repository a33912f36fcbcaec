import "server-only";
import type { Executor } from "@/db/client";
import { getTreesByHashes } from "@/db/queries/trees";
import type { TreeEntry } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { sha256Hex } from "./content";
import { LruCache } from "./lru-cache";

export interface ManifestEntry {
  hash: string;
  size: number;
}
/** A revision's files: path → blob hash and size. */
export type Manifest = Map<string, ManifestEntry>;
type TreeEntries = Record<string, TreeEntry>;

// Trees are immutable and content-addressed, so caching them can never serve stale data.
const treeCache = new LruCache<string, TreeEntries>(20_000);

/**
 * The tree's identity. Serialised field by field, in a fixed order, because jsonb does not keep
 * an object's key order and the same directory must always hash the same.
 */
export function hashTree(entries: TreeEntries): string {
  const lines = Object.keys(entries)
    .sort()
    .map((name) => {
      const entry = entries[name];
      const files = entry.type === "directory" ? ` ${entry.files}` : "";
      return `${entry.type} ${entry.hash} ${entry.size}${files} ${JSON.stringify(name)}`;
    });
  return sha256Hex(`tree\n${lines.join("\n")}`);
}

export const emptyTreeHash = hashTree({});

/** Loads many trees at once, from the cache where possible. */
export async function loadTrees(db: Executor, hashes: string[]): Promise<Map<string, TreeEntries>> {
  const result = new Map<string, TreeEntries>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    if (hash === emptyTreeHash) {
      result.set(hash, {});
      continue;
    }
    const cached = treeCache.get(hash);
    if (cached) result.set(hash, cached);
    else missing.push(hash);
  }
  for (let start = 0; start < missing.length; start += 1000) {
    const found = await getTreesByHashes(db, { hashes: missing.slice(start, start + 1000) });
    for (const [hash, entries] of found) {
      treeCache.set(hash, entries);
      result.set(hash, entries);
    }
  }
  for (const hash of hashes) {
    if (!result.has(hash)) throw new Error(`Tree ${hash} is missing from the store`);
  }
  return result;
}

async function loadTree(db: Executor, hash: string): Promise<TreeEntries> {
  return (await loadTrees(db, [hash])).get(hash)!;
}

/** Flattens a root tree into a manifest, one query per directory level. */
export async function loadManifest(db: Executor, rootHash: string): Promise<Manifest> {
  const manifest: Manifest = new Map();
  let level: { prefix: string; hash: string }[] = [{ prefix: "", hash: rootHash }];
  while (level.length > 0) {
    const trees = await loadTrees(
      db,
      level.map((item) => item.hash),
    );
    const next: { prefix: string; hash: string }[] = [];
    for (const { prefix, hash } of level) {
      const entries = trees.get(hash)!;
      for (const name of Object.keys(entries).sort()) {
        const entry = entries[name];
        const path = prefix + name;
        if (entry.type === "file") manifest.set(path, { hash: entry.hash, size: entry.size });
        else next.push({ prefix: `${path}/`, hash: entry.hash });
      }
    }
    level = next;
  }
  return manifest;
}

/** Finds one path in a tree without loading the whole manifest. */
export async function lookupPath(
  db: Executor,
  rootHash: string,
  path: string,
): Promise<TreeEntry | undefined> {
  const segments = path.split("/");
  let entries = await loadTree(db, rootHash);
  for (let index = 0; index < segments.length; index += 1) {
    const entry = entries[segments[index]];
    if (!entry) return undefined;
    if (index === segments.length - 1) return entry;
    if (entry.type !== "directory") return undefined;
    entries = await loadTree(db, entry.hash);
  }
  return undefined;
}

export interface TreeRewrite {
  rootHash: string;
  files: number;
  size: number;
  /** Trees this rewrite created; the caller stores them in the same transaction as the revision. */
  newTrees: { hash: string; entries: TreeEntries }[];
}

/**
 * Applies path-level changes (an entry to write, or null to delete) to a tree and returns the new
 * root. Only directories on changed paths are rewritten; every other subtree is shared.
 */
export async function rewriteTree(
  db: Executor,
  rootHash: string | null,
  changes: Map<string, ManifestEntry | null>,
): Promise<TreeRewrite> {
  const newTrees: TreeRewrite["newTrees"] = [];
  const root = await rewriteDirectory(db, rootHash, changes, "", newTrees);
  const rootTree = root ?? { hash: emptyTreeHash, files: 0, size: 0 };
  if (!root) newTrees.push({ hash: emptyTreeHash, entries: {} });
  return { rootHash: rootTree.hash, files: rootTree.files, size: rootTree.size, newTrees };
}

async function rewriteDirectory(
  db: Executor,
  hash: string | null,
  changes: Map<string, ManifestEntry | null>,
  prefix: string,
  newTrees: TreeRewrite["newTrees"],
): Promise<{ hash: string; files: number; size: number } | null> {
  const entries: TreeEntries = hash ? { ...(await loadTree(db, hash)) } : {};
  const direct = new Map<string, ManifestEntry | null>();
  const nested = new Map<string, Map<string, ManifestEntry | null>>();
  for (const [path, entry] of changes) {
    const slash = path.indexOf("/");
    if (slash === -1) {
      direct.set(path, entry);
    } else {
      const head = path.slice(0, slash);
      if (!nested.has(head)) nested.set(head, new Map());
      nested.get(head)!.set(path.slice(slash + 1), entry);
    }
  }
  // Deletes first, so one change set can replace a file with a directory of the same name.
  for (const [name, entry] of direct) {
    if (entry === null && entries[name]?.type === "file") delete entries[name];
  }
  for (const [name, subChanges] of nested) {
    const existing = entries[name];
    if (existing?.type === "file") {
      throw pathConflict(`${prefix}${name}`, "is a file, so it cannot contain other files");
    }
    const rewritten = await rewriteDirectory(
      db,
      existing?.hash ?? null,
      subChanges,
      `${prefix}${name}/`,
      newTrees,
    );
    if (rewritten) entries[name] = { type: "directory", ...rewritten };
    else delete entries[name];
  }
  for (const [name, entry] of direct) {
    if (entry === null) continue;
    if (entries[name]?.type === "directory") {
      throw pathConflict(`${prefix}${name}`, "is a directory, so it cannot be written as a file");
    }
    entries[name] = { type: "file", hash: entry.hash, size: entry.size };
  }
  const names = Object.keys(entries);
  if (names.length === 0) return null;
  let files = 0;
  let size = 0;
  for (const name of names) {
    const entry = entries[name];
    files += entry.type === "file" ? 1 : entry.files;
    size += entry.size;
  }
  const treeHash = hashTree(entries);
  // Not cached here: the transaction storing it may still roll back; loads cache it once committed.
  if (treeHash !== hash) newTrees.push({ hash: treeHash, entries });
  return { hash: treeHash, files, size };
}

function pathConflict(path: string, reason: string): PatchworkError {
  return new PatchworkError("VALIDATION_FAILED", `${path} ${reason}.`, {
    details: { path, reason },
  });
}
