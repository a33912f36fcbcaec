import { type HostPolicy, isAllowedHost, isOwnOrigin, type RequestHost } from "./host-policy";
import { safeEqual } from "./session";

export interface AccessRequest {
  method: string;
  pathname: string;
  /** The host and scheme the browser used (trusted proxies' forwarded values resolved). */
  requestHost: RequestHost;
  headers: Headers;
  /** Whether the request's session cookie names a live session (looked up by the caller). */
  sessionActive: boolean;
}

export type AccessDecision =
  | { kind: "allow" }
  | { kind: "misdirected"; host: string | null }
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

/** Published apps are served on any host; everything else answers only for Patchwork's own. */
function isAnyHostPath(pathname: string): boolean {
  return pathname === "/p" || pathname.startsWith("/p/") || pathname === "/api/health";
}

/**
 * Decides a request per PRODUCT.md §9. Host first: the builder answers only for the hosts it is
 * served as, so a DNS-rebinding page cannot reach it under its own name. Then origin: whatever
 * the token rules say, a browser request from another origin — the sandboxed preview's opaque
 * "null" included — may not change anything, and may not read the API either. Then the token,
 * when one is configured.
 */
export function decideAccess(
  request: AccessRequest,
  authToken: string | undefined,
  hostPolicy: HostPolicy,
): AccessDecision {
  const origin = request.headers.get("origin");
  const api = request.pathname.startsWith("/api/");
  if (!isAnyHostPath(request.pathname) && !isAllowedHost(hostPolicy, request.requestHost.host)) {
    return { kind: "misdirected", host: request.requestHost.host };
  }
  if (origin !== null) {
    const trusted = isOwnOrigin(hostPolicy, origin, request.requestHost);
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
  if (request.sessionActive) return { kind: "allow" };
  return { kind: "unauthorized", api };
}
