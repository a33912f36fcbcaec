import "server-only";
import { randomBytes } from "node:crypto";
import type { Executor } from "@/db/client";
import * as appQueries from "@/db/queries/apps";
import type { AppRow } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { commitRevision } from "./commit-revision";

/** A readable, URL-safe, unique slug: the name's words plus a short random suffix. */
export function makeSlug(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  const suffix = randomBytes(4).toString("hex").slice(0, 6);
  return `${words || "app"}-${suffix}`;
}

/** Creates an app and its first revision (the starter template, for people), atomically. */
export async function createApp(
  db: Executor,
  input: {
    name: string;
    files: Record<string, string | Uint8Array>;
    source?: "template" | "import";
    message?: string;
  },
): Promise<AppRow> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await createAppOnce(db, input);
    } catch (error) {
      // A random suffix collides about once in 16 million; try another before giving up.
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}

async function createAppOnce(
  db: Executor,
  {
    name,
    files,
    source = "template",
    message = "Created from the starter template",
  }: Parameters<typeof createApp>[1],
): Promise<AppRow> {
  return db.transaction(async (transaction) => {
    const app = await appQueries.insertApp(transaction, { name, slug: makeSlug(name) });
    const { revision } = await commitRevision(transaction, {
      appId: app.id,
      baseRevisionId: null,
      changes: Object.entries(files).map(([path, content]) => ({
        type: "write" as const,
        path,
        content,
      })),
      source,
      message,
    });
    return { ...app, draftRevisionId: revision.id };
  });
}

export async function getApp(db: Executor, { appId }: { appId: string }): Promise<AppRow> {
  const app = await appQueries.getAppById(db, { id: appId });
  if (!app) throw new PatchworkError("NOT_FOUND", "App not found.", { details: { app_id: appId } });
  return app;
}

export async function renameApp(
  db: Executor,
  { appId, name }: { appId: string; name: string },
): Promise<AppRow> {
  const app = await appQueries.updateApp(db, { id: appId, name });
  if (!app) throw new PatchworkError("NOT_FOUND", "App not found.", { details: { app_id: appId } });
  return app;
}

/** Deletes the app with its revisions, checkpoints and runs; shared blobs stay for other apps. */
export async function deleteApp(db: Executor, { appId }: { appId: string }): Promise<void> {
  const deleted = await appQueries.deleteApp(db, { id: appId });
  if (!deleted)
    throw new PatchworkError("NOT_FOUND", "App not found.", { details: { app_id: appId } });
}

export const listApps = appQueries.listApps;
