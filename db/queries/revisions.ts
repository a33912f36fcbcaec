import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { type RevisionRow, type RevisionSource, revision } from "../schema";

export async function insertRevision(
  db: Executor,
  values: {
    appId: string;
    parentRevisionId: string | null;
    rootTreeHash: string;
    fileCount: number;
    totalSize: number;
    source: RevisionSource;
    runId?: string | null;
    message?: string;
  },
): Promise<RevisionRow> {
  const [row] = await db.insert(revision).values(values).returning();
  return row;
}

export async function getRevision(
  db: Executor,
  { appId, id }: { appId: string; id: string },
): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(revision)
    .where(and(eq(revision.appId, appId), eq(revision.id, id)));
  return row;
}

export async function listRevisions(
  db: Executor,
  { appId, limit = 200 }: { appId: string; limit?: number },
): Promise<RevisionRow[]> {
  return db
    .select()
    .from(revision)
    .where(eq(revision.appId, appId))
    .orderBy(desc(revision.createdAt), desc(revision.id))
    .limit(limit);
}
