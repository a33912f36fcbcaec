import { getDatabase } from "@/db/client";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { serializeApp } from "@/lib/api/serializers";
import { publishApp, unpublishApp } from "@/lib/workspace";
import { publishBodySchema } from "./schemas";

export const dynamic = "force-dynamic";

/** Pins the draft head (or the given revision) as the public version at /p/{slug}. */
export const POST = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const body = await parseJsonBody(request, publishBodySchema);
  const app = await publishApp(await getDatabase(), { appId, revisionId: body.revision_id });
  return Response.json({ app: serializeApp(app) });
});

export const DELETE = route<{ appId: string }>(async (_request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  return Response.json({ app: serializeApp(await unpublishApp(await getDatabase(), { appId })) });
});

export const { GET, PUT, PATCH } = otherMethods(["POST", "DELETE"]);
