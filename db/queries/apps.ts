import { desc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { type AppRow, app } from "../schema";

export async function listApps(db: Executor): Promise<AppRow[]> {
  return db.select().from(app).orderBy(desc(app.updatedAt));
}

export async function getAppById(
  db: Executor,
  { id }: { id: string },
): Promise<AppRow | undefined> {
  const [row] = await db.select().from(app).where(eq(app.id, id));
  return row;
}

export async function getAppBySlug(
  db: Executor,
  { slug }: { slug: string },
): Promise<AppRow | undefined> {
  const [row] = await db.select().from(app).where(eq(app.slug, slug));
  return row;
}

/** Reads the app row and locks it until the transaction ends: head moves are serialised per app. */
export async function getAppForUpdate(
  db: Executor,
  { id }: { id: string },
): Promise<AppRow | undefined> {
  const [row] = await db.select().from(app).where(eq(app.id, id)).for("update");
  return row;
}

export async function insertApp(
  db: Executor,
  values: { name: string; slug: string },
): Promise<AppRow> {
  const [row] = await db.insert(app).values(values).returning();
  return row;
}

export async function updateApp(
  db: Executor,
  {
    id,
    ...values
  }: {
    id: string;
    name?: string;
    draftRevisionId?: string;
    publishedRevisionId?: string | null;
    publishedAt?: Date | null;
  },
): Promise<AppRow | undefined> {
  const [row] = await db
    .update(app)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(app.id, id))
    .returning();
  return row;
}

export async function deleteApp(db: Executor, { id }: { id: string }): Promise<boolean> {
  const rows = await db.delete(app).where(eq(app.id, id)).returning({ id: app.id });
  return rows.length > 0;
}
