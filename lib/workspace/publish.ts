import "server-only";
import type { Executor } from "@/db/client";
import { getAppBySlug, updateApp } from "@/db/queries/apps";
import type { AppRow } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { resolveRevision } from "./read-files";

/** Pins a revision (the draft head by default) as the app's public version; re-publishing moves the pin. */
export async function publishApp(
  db: Executor,
  { appId, revisionId }: { appId: string; revisionId?: string | null },
): Promise<AppRow> {
  const revision = await resolveRevision(db, { appId, revisionId });
  const app = await updateApp(db, {
    id: appId,
    publishedRevisionId: revision.id,
    publishedAt: new Date(),
  });
  if (!app) throw new PatchworkError("NOT_FOUND", "App not found.");
  return app;
}

export async function unpublishApp(db: Executor, { appId }: { appId: string }): Promise<AppRow> {
  const app = await updateApp(db, { id: appId, publishedRevisionId: null, publishedAt: null });
  if (!app) throw new PatchworkError("NOT_FOUND", "App not found.");
  return app;
}

/** The published app for a public slug, or NOT_FOUND when there is none (or it was unpublished). */
export async function getPublishedApp(db: Executor, { slug }: { slug: string }) {
  const app = await getAppBySlug(db, { slug });
  if (!app?.publishedRevisionId)
    throw new PatchworkError("NOT_FOUND", "Nothing is published here.");
  return app;
}
