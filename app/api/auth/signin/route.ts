import { z } from "zod";
import { parseJsonBody, route } from "@/lib/api/handler";
import {
  createSessionValue,
  safeEqual,
  sessionCookieName,
  sessionMaxAgeSeconds,
} from "@/lib/access/session";
import { PatchworkError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const signInBodySchema = z.object({ token: z.string().min(1).max(1000) }).strict();

/** Exchanges the auth token for an httpOnly, SameSite=Strict session cookie. */
export const POST = route(async (request) => {
  const authToken = process.env.PATCHWORK_AUTH_TOKEN;
  const body = await parseJsonBody(request, signInBodySchema);
  if (!authToken) return Response.json({ ok: true, auth: "disabled" });
  if (!safeEqual(body.token, authToken)) {
    throw new PatchworkError("UNAUTHORIZED", "That token is not right.");
  }
  const secure =
    new URL(request.url).protocol === "https:" ||
    request.headers.get("x-forwarded-proto") === "https";
  const cookie = [
    `${sessionCookieName}=${createSessionValue(authToken)}`,
    "Path=/",
    "HttpOnly",
    // Strict: no cross-site request — the sandboxed preview's opaque origin included — carries it.
    "SameSite=Strict",
    `Max-Age=${sessionMaxAgeSeconds}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
  return Response.json({ ok: true }, { headers: { "set-cookie": cookie } });
});
