export { discoverCompatibleModels, parseModelList } from "./compatible-models";
export type {
  ResponseTextSink,
  StreamTextKind,
  StreamTextTap,
} from "./coalesce-event-stream";
export { estimateCostUsd, hasKnownPrice, type UsageForCost } from "./estimate-cost";
export { keyedProviderDefinitions } from "./keyed-providers";
export { getLanguageModel } from "./language-model";
export { nodeHttpFetch } from "./node-http-fetch";
export { addProviderAdvice, listModels, resetModelDiscoveryCache } from "./list-models";
export { formatModelId, type ParsedModelId, parseModelId } from "./model-id";
export {
  autoModelId,
  type ModelInfo,
  type ModelProvider,
  modelInfoSchema,
  modelProviderSchema,
} from "./model-info";
export { detectOllamaModels } from "./ollama-models";
export { resolveModel } from "./resolve-model";
