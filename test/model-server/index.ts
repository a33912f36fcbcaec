export { happyPathScenario } from "./agent-scenarios";
export { type ChatCompletionRequest, selectStepIndex } from "./chat-request";
export { findHeading, requestedHeading } from "./dev-demo-scenario";
export { loadScenarioDirectory } from "./load-scenario-directory";
export {
  type ModelServer,
  type ModelServerOptions,
  type RecordedRequest,
  startModelServer,
} from "./model-server";
export { modelServerEnvironment } from "./model-server-environment";
export {
  finalStep,
  type Scenario,
  type ScriptedToolCall,
  type Step,
  type StepBuilder,
  type StepContext,
  type StepExpectation,
} from "./scenario";
export { builtInScenarios, type ScenarioName, scenarioNames } from "./scenarios";
export {
  headingPatch,
  patchedHeading,
  staleHeadingPatch,
  starterAppPath,
  starterAppSource,
} from "./starter-patches";
export { agentTools } from "./tool-names";
