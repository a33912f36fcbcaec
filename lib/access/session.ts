import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const sessionCookieName = "patchwork_session";
export const sessionMaxAgeSeconds = 30 * 24 * 60 * 60;

/** A new session secret for the cookie: 256 random bits. */
export function createSessionSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a secret: its sha256, so a leaked row is not a usable cookie. */
export function hashSessionSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** True when a cookie value could be a secret we issued (cheap pre-check before a lookup). */
export function isWellFormedSessionSecret(value: string | undefined): value is string {
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
export function safeEqual(left: string, right: string): boolean {
  const leftBytes = Buffer.from(left);
  const rightBytes = Buffer.from(right);
  return leftBytes.length === rightBytes.length && timingSafeEqual(leftBytes, rightBytes);
}
