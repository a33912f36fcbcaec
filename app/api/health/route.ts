import { sql } from "drizzle-orm";
import { getDatabaseHandle } from "@/db/client";
import { otherMethods, route } from "@/lib/api/handler";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const handle = await getDatabaseHandle();
  await handle.db.execute(sql`select 1`);
  return Response.json({ ok: true, database: handle.kind });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
