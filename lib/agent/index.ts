export { getRunEventBus, type RunEventBus } from "./events/event-bus";
export { openRunEventStream } from "./events/run-event-stream";
export { sseHeaders } from "./events/sse";
export { recoverInterruptedRuns, startRunRecovery } from "./runs/run-recovery";
export { cancelRun, createRun, getRun } from "./runs/run-service";
