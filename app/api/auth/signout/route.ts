import { route } from "@/lib/api/handler";
import { sessionCookieName } from "@/lib/access/session";

export const dynamic = "force-dynamic";

export const POST = route(async () =>
  Response.json(
    { ok: true },
    {
      headers: {
        "set-cookie": `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
      },
    },
  ),
);
