export { discoverCompatibleModels, parseModelList } from "./compatible-models";
export { describeModelEndpoint, type ModelEndpoint } from "./engine-model";
export { estimateCostUsd, hasKnownPrice, type UsageForCost } from "./estimate-cost";
export { keyedProviderDefinitions } from "./keyed-providers";
export { getLanguageModel, type ProviderWireFormat } from "./language-model";
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
export {
  describeProviderSettings,
  type ProviderSettingView,
  providerEnvironment,
  providerVariables,
  refreshProviderSettings,
  removeProviderSetting,
  saveProviderSetting,
} from "./provider-settings";
export { resolveModel } from "./resolve-model";
