import { inArray } from "drizzle-orm";
import type { Executor } from "../client";
import { type TreeEntry, tree } from "../schema";

export async function insertTrees(
  db: Executor,
  { trees }: { trees: { hash: string; entries: Record<string, TreeEntry> }[] },
): Promise<void> {
  if (trees.length === 0) return;
  await db.insert(tree).values(trees).onConflictDoNothing({ target: tree.hash });
}

export async function getTreesByHashes(
  db: Executor,
  { hashes }: { hashes: string[] },
): Promise<Map<string, Record<string, TreeEntry>>> {
  const found = new Map<string, Record<string, TreeEntry>>();
  if (hashes.length === 0) return found;
  const rows = await db.select().from(tree).where(inArray(tree.hash, hashes));
  for (const row of rows) found.set(row.hash, row.entries);
  return found;
}
