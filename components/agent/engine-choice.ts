import type { EngineStatusJson } from "@/lib/api/serializers";

/**
 * Why an engine cannot run with the chosen model, or null when it can: not installed, or the
 * model comes from a provider it does not speak. `auto` resolves on the server, so it is never
 * refused here (the server checks the resolved model when the run is created).
 */
export function engineChoiceProblem(engine: EngineStatusJson, modelId: string): string | null {
  if (!engine.available) return engine.reason ?? `${engine.label} is not available.`;
  if (modelId === "auto" || !engine.model_providers) return null;
  const provider = modelId.slice(0, modelId.indexOf(":"));
  return engine.model_providers.includes(provider as never)
    ? null
    : (engine.model_requirement ?? `${engine.label} cannot use ${modelId}.`);
}
