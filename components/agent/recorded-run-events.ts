import { type RunEvent, runEventSchema } from "@/lib/agent/events/event-types";
import recordings from "./recorded-run-events.json";

/*
 * Run event streams recorded from a production build against the scripted model server (see
 * the JSON's `_source`), for tests of the reducer and of the components that render it.
 */

function parse(events: unknown[]): RunEvent[] {
  return events.map((event) => runEventSchema.parse(event));
}

/** A patch with stale context fails, the agent re-reads the lines, the second patch applies. */
export function recordedPatchRetryRun(): RunEvent[] {
  return parse(recordings.patchRetry);
}

/** Two tool calls with invalid arguments, a good read, then the model errors and the run fails. */
export function recordedFailedRun(): RunEvent[] {
  return parse(recordings.malformedArgumentsFailed);
}

/** Text streaming when the person pressed Stop. */
export function recordedCancelledRun(): RunEvent[] {
  return parse(recordings.slowStreamCancelled);
}

export const recordedRunId = recordings.patchRetry[0].run_id;

/** The next event of a recorded run, as the server would have numbered it. */
export function followingEvent(
  events: readonly RunEvent[],
  type: RunEvent["type"],
  payload: Record<string, unknown>,
): RunEvent {
  const last = events[events.length - 1];
  return { ...last, seq: last.seq + 1, type, payload };
}
