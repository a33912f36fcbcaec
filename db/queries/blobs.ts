import { inArray } from "drizzle-orm";
import type { Executor } from "../client";
import { blob } from "../schema";

/** Stores each blob once; bytes already present (same hash) are left as they are. */
export async function insertBlobs(
  db: Executor,
  { blobs }: { blobs: { hash: string; bytes: Uint8Array; size: number }[] },
): Promise<void> {
  if (blobs.length === 0) return;
  await db.insert(blob).values(blobs).onConflictDoNothing({ target: blob.hash });
}

export async function getBlobsByHashes(
  db: Executor,
  { hashes }: { hashes: string[] },
): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  if (hashes.length === 0) return found;
  const rows = await db
    .select({ hash: blob.hash, bytes: blob.bytes })
    .from(blob)
    .where(inArray(blob.hash, hashes));
  for (const row of rows) found.set(row.hash, row.bytes);
  return found;
}
