import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { activeRunStatuses, getAppRun, getRunById, listEventsAfter } from "@/db/queries/runs";
import { PatchworkError } from "@/lib/errors";
import { logServerError } from "@/lib/log";
import { getRunEventBus, type RunEventSignal } from "./event-bus";
import { isTerminalRunEventType, type RunEvent } from "./event-types";
import { toRunEvent } from "./run-event-writer";
import { encodeComment, encodeEventFrame, encodeRetry } from "./sse";

export interface RunEventStreamInput {
  appId: string;
  runId: string;
  /** Replay starts after this seq (Last-Event-ID or ?after=); 0 replays everything. */
  afterSeq: number;
  /** Ends the stream when the client goes away. */
  signal?: AbortSignal;
  keepAliveMs?: number;
}

/**
 * A run's events as SSE: the stored ones after `afterSeq`, then live ones as they are stored,
 * until the terminal event. Every frame comes from run_event, so a reconnect gets exactly the
 * events it missed, once each, whichever process executes the run.
 */
export async function openRunEventStream(
  handle: DatabaseHandle,
  input: RunEventStreamInput,
): Promise<ReadableStream<Uint8Array>> {
  const run = await getAppRun(handle.db, { appId: input.appId, id: input.runId });
  if (!run)
    throw new PatchworkError("NOT_FOUND", "Run not found.", { details: { run_id: input.runId } });
  const bus = await getRunEventBus(handle);
  const keepAliveMs = input.keepAliveMs ?? Number(process.env.PATCHWORK_SSE_KEEPALIVE_MS || 15_000);

  let lastSeq = input.afterSeq;
  let closed = false;
  let wake: (() => void) | null = null;
  let pendingSignal = false;
  let highestSignalled = 0;
  // Events handed over in this process, by seq: sent without a read when they are next in line.
  const delivered = new Map<number, RunEvent>();
  const signalWake = (signal: RunEventSignal) => {
    // Already sent: typically Postgres echoing this process's own notification back. Waking for
    // it would cost a pointless read per write.
    if (signal.seq <= lastSeq) return;
    // A seq whose event was already handed over (Postgres sends both): nothing to read.
    if (!signal.event && delivered.has(signal.seq)) return;
    if (signal.event) delivered.set(signal.seq, signal.event);
    highestSignalled = Math.max(highestSignalled, signal.seq);
    pendingSignal = true;
    wake?.();
  };
  // Subscribe before the first read, so an event stored in between still wakes us.
  const unsubscribe = bus.subscribe(input.runId, signalWake);
  const stop = () => {
    closed = true;
    unsubscribe();
    wake?.();
  };
  input.signal?.addEventListener("abort", stop, { once: true });

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encodeRetry(1000));
      let keepAliveTimer: NodeJS.Timeout | undefined;
      const waitForSignal = async () => {
        await new Promise<void>((resolve) => {
          wake = resolve;
          keepAliveTimer = setTimeout(() => {
            if (!closed) controller.enqueue(encodeComment("keep-alive"));
            resolve();
          }, keepAliveMs);
        });
        wake = null;
        clearTimeout(keepAliveTimer);
      };
      try {
        let replayed = false;
        while (!closed) {
          pendingSignal = false;
          if (replayed && delivered.has(lastSeq + 1)) {
            // The live path: send what was handed over, in order, while there is no gap.
            while (!closed && delivered.has(lastSeq + 1)) {
              const event = delivered.get(lastSeq + 1)!;
              delivered.delete(event.seq);
              controller.enqueue(encodeEventFrame(event));
              lastSeq = event.seq;
              if (isTerminalRunEventType(event.type)) closed = true;
            }
            if (closed) break;
            if (highestSignalled > lastSeq) continue;
            if (!pendingSignal) await waitForSignal();
            continue;
          }
          replayed = true;
          const rows = await listEventsAfter(handle.db, {
            runId: input.runId,
            seq: lastSeq,
            limit: 500,
          });
          for (const row of rows) {
            if (closed) break;
            controller.enqueue(encodeEventFrame(toRunEvent(row, input.appId)));
            lastSeq = row.seq;
            if (isTerminalRunEventType(row.type)) closed = true;
          }
          for (const seq of delivered.keys()) if (seq <= lastSeq) delivered.delete(seq);
          if (closed) break;
          if (rows.length === 500) continue;
          if (rows.length === 0) {
            // A finished run with nothing after `afterSeq` ends the stream instead of hanging.
            const current = await getRunById(handle.db, { id: input.runId });
            if (!current || !(activeRunStatuses as readonly string[]).includes(current.status)) {
              const more = await listEventsAfter(handle.db, {
                runId: input.runId,
                seq: lastSeq,
                limit: 1,
              });
              if (more.length === 0) break;
              continue;
            }
          }
          if (pendingSignal) continue;
          await waitForSignal();
        }
      } catch (error) {
        logServerError(`run stream ${input.runId} failed`, error);
      } finally {
        clearTimeout(keepAliveTimer);
        stop();
        try {
          controller.close();
        } catch {
          // Already closed by a client disconnect; nothing left to do.
        }
      }
    },
    cancel() {
      stop();
    },
  });
}
