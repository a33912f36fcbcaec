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

/**
 * A database of this test file's own beside `base`'s (made on first use by
 * `ensureSuiteDatabase`); `label` names another one, for a server configured differently. Runs go through a job queue in the database, and any server process on
 * it may execute any queued run; suites sharing one database would execute each other's runs
 * against their own model servers.
 */
export function suiteDatabaseUrl(base: string, label?: string): string {
  const url = new URL(base);
  url.pathname = `/${url.pathname.slice(1)}_suite_${suiteTag}${label ? `_${label}` : ""}`;
  return url.toString();
}

const suiteTag = randomBytes(4).toString("hex");

const ensured = new Map<string, Promise<void>>();

/** Creates a database named by `suiteDatabaseUrl` if it does not exist yet; others are left alone. */
export function ensureSuiteDatabase(url: string | undefined): Promise<void> {
  if (!url) return Promise.resolve();
  let creation = ensured.get(url);
  if (!creation) {
    creation = createSuiteDatabase(url);
    ensured.set(url, creation);
  }
  return creation;
}

async function createSuiteDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = parsed.pathname.slice(1);
  if (!/_suite_[0-9a-f]{8}(_[a-z0-9]+)?$/.test(name)) return;
  parsed.pathname = "/postgres";
  const admin = postgres(parsed.toString(), { max: 1, onnotice: () => {} });
  try {
    const existing = await admin`select 1 from pg_database where datname = ${name}`;
    if (existing.length === 0) await admin.unsafe(`create database "${name}"`);
  } catch (error) {
    // Two servers of one suite starting at once: the other created it.
    if (!["42P04", "23505"].includes((error as { code?: string }).code ?? "")) throw error;
  } finally {
    await admin.end();
  }
}
