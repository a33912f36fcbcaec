import { getDatabase } from "@/db/client";
import { otherMethods, parseJsonBody, route } from "@/lib/api/handler";
import { serializeApp } from "@/lib/api/serializers";
import { createApp, listApps } from "@/lib/workspace";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { createAppBodySchema } from "./schemas";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const apps = await listApps(await getDatabase());
  return Response.json({ apps: apps.map(serializeApp) });
});

export const POST = route(async (request) => {
  const body = await parseJsonBody(request, createAppBodySchema);
  const app = await createApp(await getDatabase(), {
    name: body.name,
    files: starterTemplateFiles,
  });
  return Response.json({ app: serializeApp(app) }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"]);
