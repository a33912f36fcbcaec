import { createHmac, timingSafeEqual } from "node:crypto";

export const sessionCookieName = "patchwork_session";
export const sessionMaxAgeSeconds = 30 * 24 * 60 * 60;

function sign(token: string, issuedAt: number): string {
  return createHmac("sha256", token).update(`patchwork-session:v1:${issuedAt}`).digest("base64url");
}

/**
 * A session cookie value: the issue time and an HMAC keyed by the auth token. Stateless, so it
 * survives restarts, and rotating PATCHWORK_AUTH_TOKEN signs everyone out.
 */
export function createSessionValue(token: string, now = Date.now()): string {
  const issuedAt = Math.floor(now / 1000);
  return `${issuedAt}.${sign(token, issuedAt)}`;
}

export function verifySessionValue(
  token: string,
  value: string | undefined,
  now = Date.now(),
): boolean {
  if (!value) return false;
  const [issuedText, signature] = value.split(".");
  const issuedAt = Number(issuedText);
  if (!Number.isInteger(issuedAt) || !signature) return false;
  const age = Math.floor(now / 1000) - issuedAt;
  if (age < -60 || age > sessionMaxAgeSeconds) return false;
  return safeEqual(signature, sign(token, issuedAt));
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
export function safeEqual(left: string, right: string): boolean {
  const leftBytes = Buffer.from(left);
  const rightBytes = Buffer.from(right);
  return leftBytes.length === rightBytes.length && timingSafeEqual(leftBytes, rightBytes);
}
