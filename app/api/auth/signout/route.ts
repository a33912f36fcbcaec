import { z } from "zod";
import { sessionCookieName } from "@/lib/access/session";
import { endAllSessions, endSession } from "@/lib/access/session-store";
import { otherMethods, parseJsonBody, route } from "@/lib/api/handler";

export const dynamic = "force-dynamic";

const signOutBodySchema = z.object({ everywhere: z.boolean().optional() }).strict();

/** Revokes this browser's session, or with `{everywhere: true}` every session, and clears the cookie. */
export const POST = route(async (request) => {
  const { everywhere } = await parseJsonBody(request, signOutBodySchema);
  const cookieValue = readCookie(request.headers.get("cookie"), sessionCookieName);
  let body: { ok: true; sessions_revoked?: number } = { ok: true };
  if (everywhere) body = { ok: true, sessions_revoked: await endAllSessions() };
  else await endSession(cookieValue);
  return Response.json(body, {
    headers: {
      "set-cookie": `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    },
  });
});

function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
