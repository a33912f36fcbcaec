import "server-only";
import { describeModelEndpoint } from "./engine-model";
import { describeEndpoint, fetchDiscoveryJson } from "./fetch-discovery-json";
import { keyedProviderDefinitions } from "./keyed-providers";

export type KeyedProviderCheck =
  | { provider: string; displayName: string; state: "no_key"; fix: string }
  | { provider: string; displayName: string; state: "reachable"; endpoint: string }
  | {
      provider: string;
      displayName: string;
      state: "unreachable";
      endpoint: string;
      problem: string;
      fix: string;
    };

/**
 * Asks every keyed provider whose key is set for its model list — the cheapest authenticated
 * call each one has, and one that spends nothing — so `npm run doctor` can tell a wrong key or
 * base URL from a working one before a run fails on it. The key travels in the header each
 * provider expects (never in the URL, which may be printed); answers carry no secret.
 */
export async function checkKeyedProviders({
  timeoutMs = 5000,
}: {
  timeoutMs?: number;
} = {}): Promise<KeyedProviderCheck[]> {
  return Promise.all(
    keyedProviderDefinitions.map(async (definition): Promise<KeyedProviderCheck> => {
      const { provider, displayName, keyVariable } = definition;
      const endpoint = describeModelEndpoint(`${provider}:${definition.models[0].modelName}`);
      if (!endpoint.apiKey) {
        return { provider, displayName, state: "no_key", fix: `Set ${keyVariable}.` };
      }
      const request = modelListRequest(provider, endpoint.baseUrl, endpoint.apiKey);
      const answer = await fetchDiscoveryJson({ ...request, timeoutMs });
      const shown = describeEndpoint(request.url);
      if (answer.ok) return { provider, displayName, state: "reachable", endpoint: shown };
      return {
        provider,
        displayName,
        state: "unreachable",
        endpoint: shown,
        problem: answer.problem,
        fix: /answered 40[13]/.test(answer.problem)
          ? `Check ${keyVariable}: the provider refused it.`
          : `Check the network${baseUrlVariable[provider] ? ` and ${baseUrlVariable[provider]}` : ""}.`,
      };
    }),
  );
}

const baseUrlVariable: Record<string, string | undefined> = {
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
};

export function modelListRequest(
  provider: string,
  baseUrl: string,
  apiKey: string,
): { url: string; apiKey?: string; headers?: Record<string, string> } {
  switch (provider) {
    case "anthropic":
      // ANTHROPIC_BASE_URL has no /v1 (the Anthropic SDKs and Claude Code add it).
      return {
        url: `${baseUrl}/v1/models`,
        headers: { "x-api-key": apiKey, "anthropic-version": "2023-06-01" },
      };
    case "google":
      return { url: `${baseUrl}/models`, headers: { "x-goog-api-key": apiKey } };
    default:
      return { url: `${baseUrl}/models`, apiKey };
  }
}
