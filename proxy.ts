import { type NextRequest, NextResponse } from "next/server";
import { decideAccess } from "@/lib/access/access-policy";

/**
 * Every request passes here first (Next.js 16 runs the proxy on Node.js): the origin rule
 * protects the builder's data from preview code and other sites; the token rule, when
 * PATCHWORK_AUTH_TOKEN is set, keeps everything but health and published apps private.
 */
export function proxy(request: NextRequest) {
  const authToken = process.env.PATCHWORK_AUTH_TOKEN || undefined;
  const extraOrigins = process.env.PATCHWORK_PUBLIC_ORIGIN
    ? [new URL(process.env.PATCHWORK_PUBLIC_ORIGIN).origin]
    : [];
  const decision = decideAccess(
    {
      method: request.method,
      pathname: request.nextUrl.pathname,
      ownOrigin: ownOrigin(request),
      headers: request.headers,
      cookies: request.cookies,
    },
    authToken,
    extraOrigins,
  );
  if (decision.kind === "allow") return NextResponse.next();
  if (decision.kind === "forbidden-origin") {
    return NextResponse.json(
      {
        error: {
          code: "FORBIDDEN_ORIGIN",
          message: "Requests from this origin may not use the Patchwork API.",
        },
      },
      { status: 403 },
    );
  }
  if (decision.api) {
    return NextResponse.json(
      {
        error: {
          code: "UNAUTHORIZED",
          message: "Sign in, or send the auth token as a bearer header.",
        },
      },
      { status: 401 },
    );
  }
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

/** The origin the browser used: the Host header is what the user typed; nextUrl may be normalised. */
function ownOrigin(request: NextRequest): string {
  const host =
    request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? request.nextUrl.host;
  const protocol =
    request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(":", "");
  return `${protocol}://${host}`;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image).*)"],
};
