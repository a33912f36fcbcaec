import "server-only";
import { z } from "zod";
import { describeEndpoint, fetchDiscoveryJson } from "./fetch-discovery-json";
import type { ModelInfo } from "./model-info";

/** A local Ollama answers in a few milliseconds; anything slower is treated as absent. */
export const ollamaDetectionTimeoutMs = 300;

const tagListSchema = z.object({
  models: z.array(z.object({ name: z.string().min(1) }).loose()),
});

function unavailableOllama(reason: string): ModelInfo {
  return { id: "ollama", provider: "ollama", label: "Ollama", available: false, reason };
}

/**
 * The models a local Ollama has pulled, found through `GET {base}/api/tags`. Inference then goes
 * through Ollama's OpenAI-compatible `/v1` endpoint. When no Ollama answers, one unavailable
 * entry says how to start it, so the picker shows that local models are an option.
 */
export async function detectOllamaModels({
  baseUrl,
  timeoutMs = ollamaDetectionTimeoutMs,
}: {
  baseUrl: string;
  timeoutMs?: number;
}): Promise<ModelInfo[]> {
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/api/tags`;
  const result = await fetchDiscoveryJson({ url: endpoint, timeoutMs });
  if (!result.ok) {
    return [
      unavailableOllama(
        `No Ollama at ${describeEndpoint(baseUrl)}: it ${result.problem}. Start Ollama (ollama serve) or set OLLAMA_BASE_URL.`,
      ),
    ];
  }
  const parsed = tagListSchema.safeParse(result.body);
  if (!parsed.success) {
    return [
      unavailableOllama(
        `${describeEndpoint(baseUrl)} did not answer like Ollama; check OLLAMA_BASE_URL.`,
      ),
    ];
  }
  const names = [...new Set(parsed.data.models.map((model) => model.name))];
  if (names.length === 0) {
    return [unavailableOllama("Ollama is running but has no models; pull one with `ollama pull`.")];
  }
  return names.map((name) => ({
    id: `ollama:${name}`,
    provider: "ollama",
    // "llama3.2:latest" reads better as "llama3.2"; other tags carry meaning and stay.
    label: name.replace(/:latest$/, ""),
    available: true,
  }));
}
