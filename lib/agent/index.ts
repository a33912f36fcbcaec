export { getRunEventBus, type RunEventBus } from "./event-bus";
export { openRunEventStream } from "./run-event-stream";
export { recoverInterruptedRuns, startRunRecovery } from "./run-recovery";
export { cancelRun, createRun, getRun } from "./run-service";
export { sseHeaders } from "./sse";
