import { type NextRequest, NextResponse } from "next/server";
import { decideAccess } from "@/lib/access/access-policy";
import {
  type HostPolicy,
  hostPolicyFromEnvironment,
  resolveRequestHost,
} from "@/lib/access/host-policy";
import { securityHeaders } from "@/lib/access/security-headers";
import { sessionCookieName } from "@/lib/access/session";
import { isSessionActive } from "@/lib/access/session-store";

// Set by scripts/connection-guard.mjs from the socket itself; a client's own copy is dropped.
const peerAddressHeader = "x-patchwork-peer-address";

let cachedPolicy: { key: string; policy: HostPolicy } | undefined;

/** The host policy, rebuilt only if its settings change (they are read once per process in practice). */
function hostPolicy(): HostPolicy {
  const key = [
    process.env.PATCHWORK_PUBLIC_URL,
    process.env.PATCHWORK_ALLOWED_HOSTS,
    process.env.PATCHWORK_TRUSTED_PROXIES,
  ].join("\n");
  if (cachedPolicy?.key !== key) {
    cachedPolicy = { key, policy: hostPolicyFromEnvironment(process.env) };
  }
  return cachedPolicy.policy;
}

function errorResponse(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return NextResponse.json({ error: { code, message } }, { status, headers });
}

/** True when every `%xx` sequence of the path decodes to valid UTF-8. */
function hasValidEncoding(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every request passes here first (Next.js 16 runs the proxy on Node.js): the host rule keeps the
 * builder from answering under names it is not served as (DNS rebinding); the origin rule
 * protects the builder's data from preview code and other sites; the token rule, when
 * PATCHWORK_AUTH_TOKEN is set, keeps everything but health and published apps private.
 */
export async function proxy(request: NextRequest) {
  const pathname = request.nextUrl.pathname;
  if (!hasValidEncoding(pathname)) {
    return errorResponse(
      400,
      "VALIDATION_FAILED",
      "The request path is not valid percent-encoded UTF-8.",
    );
  }
  const policy = hostPolicy();
  const requestHost = resolveRequestHost(policy, {
    headers: request.headers,
    peerAddress: request.headers.get(peerAddressHeader),
    protocol: request.nextUrl.protocol.replace(":", ""),
  });
  const authToken = process.env.PATCHWORK_AUTH_TOKEN || undefined;
  // Looked up only where it can matter: with a token configured and a cookie sent.
  const sessionCookie = request.cookies.get(sessionCookieName)?.value;
  const sessionActive = authToken && sessionCookie ? await isSessionActive(sessionCookie) : false;
  const decision = decideAccess(
    {
      method: request.method,
      pathname,
      requestHost,
      headers: request.headers,
      sessionActive,
    },
    authToken,
    policy,
  );
  if (decision.kind === "allow") return withSecurityHeaders(NextResponse.next(), pathname);
  if (decision.kind === "misdirected") {
    return errorResponse(
      421,
      "MISDIRECTED_REQUEST",
      "Patchwork is not served under this host name. Add it to PATCHWORK_ALLOWED_HOSTS or PATCHWORK_PUBLIC_URL if it should be.",
    );
  }
  if (decision.kind === "forbidden-origin") {
    return errorResponse(
      403,
      "FORBIDDEN_ORIGIN",
      "Requests from this origin may not use the Patchwork API.",
    );
  }
  if (decision.api) {
    return errorResponse(
      401,
      "UNAUTHORIZED",
      "Sign in, or send the auth token as a bearer header.",
    );
  }
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("next", pathname + request.nextUrl.search);
  return withSecurityHeaders(NextResponse.redirect(signIn), pathname);
}

/** Builder pages may not be framed or sniffed; preview and published documents set their own. */
function withSecurityHeaders(response: NextResponse, pathname: string): NextResponse {
  for (const [name, value] of Object.entries(securityHeaders(pathname))) {
    response.headers.set(name, value);
  }
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image).*)"],
};
