import { z } from "zod";
import { hostPolicyFromEnvironment, resolveClientAddress } from "@/lib/access/host-policy";
import { safeEqual, sessionCookieName, sessionMaxAgeSeconds } from "@/lib/access/session";
import { startSession } from "@/lib/access/session-store";
import { SignInThrottle } from "@/lib/access/sign-in-throttle";
import { otherMethods, parseJsonBody, route } from "@/lib/api/handler";
import { PatchworkError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const signInBodySchema = z.object({ token: z.string().min(1).max(1000) }).strict();

const throttleKey = Symbol.for("patchwork.signInThrottle");
type GlobalWithThrottle = typeof globalThis & { [throttleKey]?: SignInThrottle };

function throttle(): SignInThrottle {
  const holder = globalThis as GlobalWithThrottle;
  holder[throttleKey] ??= new SignInThrottle();
  return holder[throttleKey];
}

/** Exchanges the auth token for an httpOnly, SameSite=Strict cookie naming a revocable session. */
export const POST = route(async (request) => {
  const authToken = process.env.PATCHWORK_AUTH_TOKEN;
  const body = await parseJsonBody(request, signInBodySchema);
  if (!authToken) return Response.json({ ok: true, auth: "disabled" });
  const address = resolveClientAddress(hostPolicyFromEnvironment(process.env), {
    headers: request.headers,
    peerAddress: request.headers.get("x-patchwork-peer-address"),
  });
  const retryAfter = throttle().retryAfterSeconds(address);
  if (retryAfter > 0) {
    const response = new PatchworkError(
      "RATE_LIMITED",
      `Too many wrong tokens. Try again in ${retryAfter} s.`,
      { details: { retry_after_seconds: retryAfter } },
    ).toResponse();
    response.headers.set("Retry-After", String(retryAfter));
    return response;
  }
  if (!safeEqual(body.token, authToken)) {
    throttle().recordFailure(address);
    throw new PatchworkError("UNAUTHORIZED", "That token is not right.");
  }
  throttle().recordSuccess(address);
  const secret = await startSession({ userAgent: request.headers.get("user-agent") });
  const secure = new URL(request.url).protocol === "https:";
  const cookie = [
    `${sessionCookieName}=${secret}`,
    "Path=/",
    "HttpOnly",
    // Strict: no cross-site request — the sandboxed preview's opaque origin included — carries it.
    "SameSite=Strict",
    `Max-Age=${sessionMaxAgeSeconds}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
  return Response.json({ ok: true }, { headers: { "set-cookie": cookie } });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
