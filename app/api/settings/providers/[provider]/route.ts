import { getDatabase } from "@/db/client";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { serializeProviderSetting } from "@/lib/api/serializers";
import { describeProviderSettings, removeProviderSetting, saveProviderSetting } from "@/lib/models";
import { providerParamsSchema, saveProviderBodySchema } from "../schemas";

export const dynamic = "force-dynamic";
type Params = { provider: string };

async function providerAnswer(provider: string) {
  const views = await describeProviderSettings(await getDatabase());
  return serializeProviderSetting(views.find((view) => view.provider === provider)!);
}

export const GET = route<Params>(async (_request, { params }) => {
  const { provider } = parseWith(providerParamsSchema, params, "path");
  return Response.json({ provider: await providerAnswer(provider) });
});

export const PUT = route<Params>(async (request, { params }) => {
  const { provider } = parseWith(providerParamsSchema, params, "path");
  const body = await parseJsonBody(request, saveProviderBodySchema);
  await saveProviderSetting(
    { provider, apiKey: body.api_key, baseUrl: body.base_url, models: body.models },
    await getDatabase(),
  );
  return Response.json({ provider: await providerAnswer(provider) });
});

export const DELETE = route<Params>(async (_request, { params }) => {
  const { provider } = parseWith(providerParamsSchema, params, "path");
  await removeProviderSetting(provider, await getDatabase());
  return new Response(null, { status: 204 });
});

export const { POST, PATCH } = otherMethods(["GET", "PUT", "DELETE"]);
