import "server-only";
import { PatchworkError } from "@/lib/errors";
import { addProviderAdvice, listModels } from "./list-models";
import { autoModelId, type ModelInfo } from "./model-info";

/** Model ids come from request bodies; an absurdly long one is cut before it reaches a message. */
const maximumEchoedIdLength = 200;

/**
 * Pins the model for a run: null, undefined or `auto` take the first available model; any other
 * id must be listed and available. Fails with `CODING_AGENT_MODEL_UNAVAILABLE` (400) and a
 * message that says what to do, so the run is refused at creation rather than failing mid-run.
 */
export async function resolveModel(
  requestedModelId: string | null | undefined,
): Promise<ModelInfo> {
  const models = await listModels();
  const requested = requestedModelId?.trim() || autoModelId;

  if (requested === autoModelId) {
    const first = models.find((model) => model.provider !== "auto" && model.available);
    if (first) return first;
    throw new PatchworkError("CODING_AGENT_MODEL_UNAVAILABLE", addProviderAdvice, {
      details: { model_id: autoModelId, reason: "no provider is configured" },
    });
  }

  const echoedId = requested.slice(0, maximumEchoedIdLength);
  const model = models.find((candidate) => candidate.id === requested);
  if (!model || model.provider === "auto") {
    throw new PatchworkError(
      "CODING_AGENT_MODEL_UNAVAILABLE",
      `Unknown model "${echoedId}". Choose Auto or a model listed by GET /api/models.`,
      { details: { model_id: echoedId, reason: "not a configured model" } },
    );
  }
  if (!model.available) {
    const reason = model.reason ?? "it is not available right now";
    throw new PatchworkError(
      "CODING_AGENT_MODEL_UNAVAILABLE",
      `Model "${model.label}" (${model.id}) is unavailable: ${reason}`,
      { details: { model_id: model.id, reason } },
    );
  }
  return model;
}
