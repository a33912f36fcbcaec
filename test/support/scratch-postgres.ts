import { randomBytes } from "node:crypto";
import postgres from "postgres";

/**
 * A fresh PostgreSQL database beside TEST_DATABASE_URL's, for a suite whose actions reach every
 * row of a table (e.g. "sign out everywhere") and so must not share one with suites running at
 * the same time. Null when no TEST_DATABASE_URL is set.
 */
export async function createScratchDatabase(
  label: string,
): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const name = `patchwork_${label}_${randomBytes(4).toString("hex")}`;
  const adminUrl = new URL(base);
  adminUrl.pathname = "/postgres";
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
