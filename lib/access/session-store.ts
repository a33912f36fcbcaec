import "server-only";
import { getDatabase } from "@/db/client";
import {
  deleteEndedSessions,
  getActiveSession,
  insertSession,
  revokeAllSessions,
  revokeSession,
} from "@/db/queries/sessions";
import {
  createSessionSecret,
  hashSessionSecret,
  isWellFormedSessionSecret,
  sessionMaxAgeSeconds,
} from "./session";

// Every builder request checks its session; a few seconds of memory spares the database that
// lookup per request. Revocation here clears it at once; another process sees it within this.
const cacheMilliseconds = 5_000;
const maxCachedSessions = 10_000;

interface CachedCheck {
  active: boolean;
  checkedAt: number;
}

const cacheKey = Symbol.for("patchwork.sessionCache");
type GlobalWithCache = typeof globalThis & { [cacheKey]?: Map<string, CachedCheck> };

function cache(): Map<string, CachedCheck> {
  const holder = globalThis as GlobalWithCache;
  holder[cacheKey] ??= new Map();
  return holder[cacheKey];
}

/** Starts a session and answers the secret for the cookie. */
export async function startSession({ userAgent }: { userAgent: string | null }): Promise<string> {
  const db = await getDatabase();
  const secret = createSessionSecret();
  const now = Date.now();
  await insertSession(db, {
    idHash: hashSessionSecret(secret),
    expiresAt: new Date(now + sessionMaxAgeSeconds * 1000),
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  // Sign-in is rare: a good moment to forget sessions that ended long ago.
  await deleteEndedSessions(db, { before: new Date(now - 24 * 60 * 60 * 1000) });
  return secret;
}

/** True when the cookie's session exists, is not revoked, and has not expired. */
export async function isSessionActive(secret: string | undefined): Promise<boolean> {
  if (!isWellFormedSessionSecret(secret)) return false;
  const idHash = hashSessionSecret(secret);
  const now = Date.now();
  const cached = cache().get(idHash);
  if (cached && now - cached.checkedAt < cacheMilliseconds) return cached.active;
  const row = await getActiveSession(await getDatabase(), { idHash, now: new Date(now) });
  if (cache().size >= maxCachedSessions) cache().clear();
  cache().set(idHash, { active: row !== undefined, checkedAt: now });
  return row !== undefined;
}

/** Revokes the cookie's session (sign-out). */
export async function endSession(secret: string | undefined): Promise<void> {
  if (!isWellFormedSessionSecret(secret)) return;
  const idHash = hashSessionSecret(secret);
  await revokeSession(await getDatabase(), { idHash, now: new Date() });
  cache().set(idHash, { active: false, checkedAt: Date.now() });
}

/** Revokes every session (sign out everywhere); answers how many were active. */
export async function endAllSessions(): Promise<number> {
  const revoked = await revokeAllSessions(await getDatabase(), { now: new Date() });
  cache().clear();
  return revoked;
}
