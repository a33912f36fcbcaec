import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { Executor } from "../client";
import { type SessionRow, session } from "../schema";

export async function insertSession(
  db: Executor,
  values: { idHash: string; expiresAt: Date; userAgent?: string | null },
): Promise<SessionRow> {
  const [row] = await db.insert(session).values(values).returning();
  return row;
}

/** The session if it is neither revoked nor expired at `now`. */
export async function getActiveSession(
  db: Executor,
  { idHash, now }: { idHash: string; now: Date },
): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(session)
    .where(and(eq(session.idHash, idHash), isNull(session.revokedAt), gt(session.expiresAt, now)));
  return row;
}

export async function revokeSession(
  db: Executor,
  { idHash, now }: { idHash: string; now: Date },
): Promise<void> {
  await db
    .update(session)
    .set({ revokedAt: now })
    .where(and(eq(session.idHash, idHash), isNull(session.revokedAt)));
}

/** Revokes every session; answers how many were still active. */
export async function revokeAllSessions(db: Executor, { now }: { now: Date }): Promise<number> {
  const rows = await db
    .update(session)
    .set({ revokedAt: now })
    .where(and(isNull(session.revokedAt), gt(session.expiresAt, now)))
    .returning({ idHash: session.idHash });
  return rows.length;
}

/** Forgets sessions that ended more than a day ago, so the table does not grow without bound. */
export async function deleteEndedSessions(
  db: Executor,
  { before }: { before: Date },
): Promise<void> {
  await db.delete(session).where(or(lt(session.expiresAt, before), lt(session.revokedAt, before)));
}
