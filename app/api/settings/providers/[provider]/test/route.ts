import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { refreshProviderSettings } from "@/lib/models";
import { checkProviderSetting } from "@/lib/models/provider-check";
import { checkProviderBodySchema, providerParamsSchema } from "../../schemas";

export const dynamic = "force-dynamic";
type Params = { provider: string };

/** Tries a provider's key and address (given, else the ones in use) without running anything. */
export const POST = route<Params>(async (request, { params }) => {
  const { provider } = parseWith(providerParamsSchema, params, "path");
  const body = await parseJsonBody(request, checkProviderBodySchema);
  await refreshProviderSettings();
  const check = await checkProviderSetting({
    provider,
    apiKey: body.api_key,
    baseUrl: body.base_url,
  });
  return Response.json(
    check.ok
      ? { ok: true, endpoint: check.endpoint, model_count: check.modelCount }
      : { ok: false, endpoint: check.endpoint, problem: check.problem },
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
