/** The agent panel: the chat for one app, mounted as the workspace's right-hand column. */
export { AgentPanel } from "./agent-panel";
export { type RunView, reduceRunEvent, reduceRunEvents } from "./run-event-reducer";
export { useRunEvents } from "./use-run-events";
