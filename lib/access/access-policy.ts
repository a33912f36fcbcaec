import { safeEqual, sessionCookieName, verifySessionValue } from "./session";

export interface AccessRequest {
  method: string;
  pathname: string;
  /** The builder's own origin as the server sees it (scheme://host[:port]). */
  ownOrigin: string;
  headers: Headers;
  cookies: { get(name: string): { value: string } | undefined };
}

export type AccessDecision =
  | { kind: "allow" }
  | { kind: "unauthorized"; api: boolean }
  | { kind: "forbidden-origin"; origin: string };

const mutatingMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Paths anyone may reach: health checks, published apps, the sign-in flow and static assets. */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === "/api/health" ||
    pathname === "/p" ||
    pathname.startsWith("/p/") ||
    pathname === "/signin" ||
    pathname === "/api/auth/signin" ||
    pathname.startsWith("/_next/") ||
    pathname === "/favicon.ico" ||
    pathname === "/icon.svg"
  );
}

/**
 * Decides a request per PRODUCT.md §9. Origin first: whatever the token rules say, a browser
 * request from another origin — the sandboxed preview's opaque "null" included — may not change
 * anything, and may not read the API either. Then the token, when one is configured.
 */
export function decideAccess(
  request: AccessRequest,
  authToken: string | undefined,
  extraOrigins: string[] = [],
): AccessDecision {
  const origin = request.headers.get("origin");
  const api = request.pathname.startsWith("/api/");
  if (origin !== null) {
    const trusted = origin === request.ownOrigin || extraOrigins.includes(origin);
    if (
      !trusted &&
      (mutatingMethods.has(request.method.toUpperCase()) || (api && origin === "null"))
    ) {
      return { kind: "forbidden-origin", origin };
    }
  }
  if (!authToken || isPublicPath(request.pathname)) return { kind: "allow" };
  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (bearer && safeEqual(bearer, authToken)) return { kind: "allow" };
  if (verifySessionValue(authToken, request.cookies.get(sessionCookieName)?.value))
    return { kind: "allow" };
  return { kind: "unauthorized", api };
}
