import { getDatabase } from "@/db/client";
import { removeEngineStateForApp } from "@/lib/agent/engines/registry";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { serializeApp } from "@/lib/api/serializers";
import { deleteApp, getApp, renameApp } from "@/lib/workspace";
import { updateAppBodySchema } from "./schemas";

export const dynamic = "force-dynamic";
type Params = { appId: string };

export const GET = route<Params>(async (_request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  return Response.json({ app: serializeApp(await getApp(await getDatabase(), { appId })) });
});

export const PATCH = route<Params>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const body = await parseJsonBody(request, updateAppBodySchema);
  return Response.json({
    app: serializeApp(await renameApp(await getDatabase(), { appId, name: body.name })),
  });
});

export const DELETE = route<Params>(async (_request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  await deleteApp(await getDatabase(), { appId });
  // Engines' own stores (Codex threads) hold the app's conversation too.
  await removeEngineStateForApp(appId);
  return new Response(null, { status: 204 });
});

export const { POST, PUT } = otherMethods(["GET", "PATCH", "DELETE"]);
