import "server-only";
import type { ProviderSettingId } from "@/db/schema";
import { describeModelEndpoint } from "./engine-model";
import { describeEndpoint, fetchDiscoveryJson } from "./fetch-discovery-json";
import { keyedProviderDefinitions } from "./keyed-providers";
import { modelListRequest } from "./provider-reachability";
import { providerEnvironment } from "./provider-settings";

export type ProviderCheck =
  | { ok: true; endpoint: string; modelCount: number | null }
  | { ok: false; endpoint: string | null; problem: string };

/** Long enough for a provider across the internet; the person is waiting on a button. */
const checkTimeoutMs = 8_000;

/**
 * Asks a provider for its model list with the given key and address, or the ones in use when
 * absent: the cheapest authenticated call each has, and one that spends nothing. Lets the
 * settings page tell a wrong key from a working one before a run fails on it.
 */
export async function checkProviderSetting({
  provider,
  apiKey,
  baseUrl,
}: {
  provider: ProviderSettingId;
  apiKey?: string;
  baseUrl?: string;
}): Promise<ProviderCheck> {
  if (provider === "compatible") {
    const environment = providerEnvironment();
    const base = (baseUrl ?? environment.OPENAI_COMPATIBLE_BASE_URL)?.replace(/\/+$/, "");
    if (!base) return { ok: false, endpoint: null, problem: "No base URL is set." };
    // The saved key goes only to the address it was saved with.
    const key = apiKey ?? (baseUrl ? undefined : environment.OPENAI_COMPATIBLE_API_KEY?.trim());
    return ask({ url: `${base}/models`, apiKey: key || undefined });
  }
  const definition = keyedProviderDefinitions.find((candidate) => candidate.provider === provider);
  const endpoint = describeModelEndpoint(`${provider}:${definition?.models[0].modelName}`);
  const key = apiKey ?? endpoint.apiKey;
  if (!key) return { ok: false, endpoint: null, problem: "No API key is set." };
  return ask(modelListRequest(provider, endpoint.baseUrl, key));
}

async function ask(request: {
  url: string;
  apiKey?: string;
  headers?: Record<string, string>;
}): Promise<ProviderCheck> {
  const endpoint = describeEndpoint(request.url);
  const answer = await fetchDiscoveryJson({ ...request, timeoutMs: checkTimeoutMs });
  if (!answer.ok) {
    const refused = /answered 40[13]/.test(answer.problem);
    return {
      ok: false,
      endpoint,
      problem: `${endpoint} ${answer.problem}${refused ? ": the key was refused" : ""}.`,
    };
  }
  const models = (answer.body as { data?: unknown; models?: unknown } | null) ?? {};
  const list = Array.isArray(models.data)
    ? models.data
    : Array.isArray(models.models)
      ? models.models
      : null;
  return { ok: true, endpoint, modelCount: list ? list.length : null };
}
