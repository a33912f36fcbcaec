import "server-only";
import { z } from "zod";
import { describeEndpoint, fetchDiscoveryJson } from "./fetch-discovery-json";
import type { ModelInfo } from "./model-info";

/** Long enough for a local or LAN endpoint, short enough that the model picker never stalls. */
export const compatibleDiscoveryTimeoutMs = 1_500;

const modelListSchema = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });

/** Placeholder entry when the endpoint is not configured or cannot list its models. */
function unavailableEndpoint(reason: string): ModelInfo {
  return {
    id: "compatible",
    provider: "compatible",
    label: "OpenAI-compatible endpoint",
    available: false,
    reason,
  };
}

/** Splits OPENAI_COMPATIBLE_MODELS, dropping blanks and repeats but keeping the given order. */
export function parseModelList(value: string | undefined): string[] {
  const names = (value ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return [...new Set(names)];
}

/**
 * The models of the OpenAI-compatible endpoint: OPENAI_COMPATIBLE_MODELS when given, else the
 * endpoint's own `GET {base}/models`. A failure lists one unavailable entry with the reason.
 */
export async function discoverCompatibleModels({
  baseUrl,
  apiKey,
  configuredModels,
  timeoutMs = compatibleDiscoveryTimeoutMs,
}: {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  configuredModels: string | undefined;
  timeoutMs?: number;
}): Promise<ModelInfo[]> {
  const names = parseModelList(configuredModels);
  if (!baseUrl) {
    if (names.length === 0) return [];
    return [
      unavailableEndpoint(
        "OPENAI_COMPATIBLE_MODELS is set but OPENAI_COMPATIBLE_BASE_URL is not; set it to the endpoint's /v1 address.",
      ),
    ];
  }
  if (names.length > 0) return names.map(compatibleModel);

  const endpoint = `${baseUrl.replace(/\/+$/, "")}/models`;
  const result = await fetchDiscoveryJson({ url: endpoint, apiKey, timeoutMs });
  const advice = "or list the models in OPENAI_COMPATIBLE_MODELS.";
  if (!result.ok) {
    return [
      unavailableEndpoint(
        `The endpoint ${describeEndpoint(endpoint)} ${result.problem}; check OPENAI_COMPATIBLE_BASE_URL, ${advice}`,
      ),
    ];
  }
  const parsed = modelListSchema.safeParse(result.body);
  if (!parsed.success) {
    return [
      unavailableEndpoint(
        `The endpoint ${describeEndpoint(endpoint)} did not answer an OpenAI model list; ${advice}`,
      ),
    ];
  }
  const discovered = [...new Set(parsed.data.data.map((model) => model.id))];
  if (discovered.length === 0) {
    return [
      unavailableEndpoint(`The endpoint ${describeEndpoint(endpoint)} lists no models; ${advice}`),
    ];
  }
  return discovered.map(compatibleModel);
}

function compatibleModel(modelName: string): ModelInfo {
  return {
    id: `compatible:${modelName}`,
    provider: "compatible",
    label: modelName,
    available: true,
  };
}
