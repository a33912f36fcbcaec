import "server-only";
import type { DatabaseHandle } from "@/db/client";
import {
  finishRunIfActive,
  getLastEventSeq,
  insertRunEvent,
  insertRunEvents,
} from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import { redactSecrets } from "@/lib/redact-secrets";
import type { RunEventBus } from "./event-bus";
import {
  isTerminalRunEventType,
  type RunEvent,
  type RunEventType,
  type TerminalRunEventType,
} from "./event-types";

interface PendingEvent {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  resolve(event: RunEvent): void;
  reject(error: unknown): void;
}

type EventRow = {
  runId: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
};

/**
 * The only writer of a run's events. `seq` is assigned when an event is emitted, so it is gapless
 * and in call order; events are committed to run_event before followers are woken. Events that
 * arrive while a write is in flight are written together in the next one (group commit), so a
 * model streaming thousands of deltas a second is stored at the database's batch speed rather
 * than one round trip per delta.
 */
export class RunEventWriter {
  private pending: PendingEvent[] = [];
  private flushing: Promise<void> | null = null;
  private failure: unknown = null;
  private nextSeq: number;
  private terminal: TerminalRunEventType | null = null;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly bus: RunEventBus,
    private readonly run: { id: string; appId: string },
    lastSeq: number,
  ) {
    this.nextSeq = lastSeq + 1;
  }

  get ended(): boolean {
    return this.terminal !== null;
  }

  /**
   * Appends a non-terminal event; resolves once it is stored and published. Ignored after the
   * terminal event: a run ends exactly once.
   */
  emit(
    type: Exclude<RunEventType, TerminalRunEventType>,
    payload: Record<string, unknown>,
  ): Promise<RunEvent | null> {
    if (this.terminal) return Promise.resolve(null);
    if (this.failure) return Promise.reject(this.failure);
    const promise = new Promise<RunEvent>((resolve, reject) => {
      this.pending.push({
        seq: this.nextSeq,
        type,
        payload: redactSecrets(payload),
        resolve,
        reject,
      });
    });
    this.nextSeq += 1;
    this.scheduleFlush();
    return promise;
  }

  /**
   * Appends without waiting, for high-rate events (text deltas): a failure is kept and thrown by
   * the next `flush()`, so the model stream is never throttled to the database's round trip.
   */
  emitInBackground(
    type: Exclude<RunEventType, TerminalRunEventType>,
    payload: Record<string, unknown>,
  ): void {
    this.emit(type, payload).catch((error) => {
      this.failure ??= error;
    });
  }

  /** Resolves when every event emitted so far is stored; throws the first failed write. */
  async flush(): Promise<void> {
    await this.settled();
    if (this.failure) throw this.failure;
  }

  /** Resolves when no write is in flight, whatever its outcome (for error paths). */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /**
   * Appends the terminal event and the run's final state in one transaction, so a reader never
   * sees a finished stream with a running run or the reverse. Returns false if the run had already
   * ended — here, or by another writer such as recovery.
   */
  async finish(
    type: TerminalRunEventType,
    payload: Record<string, unknown>,
    runUpdate: Partial<Omit<AgentRunRow, "id">>,
  ): Promise<boolean> {
    if (this.terminal) return false;
    this.terminal = type;
    await this.settled();
    for (let attempt = 1; ; attempt += 1) {
      try {
        const row = await this.handle.db.transaction(async (transaction) => {
          const stillActive = await finishRunIfActive(transaction, {
            id: this.run.id,
            ...redactSecrets(runUpdate),
            finishedAt: new Date(),
          });
          if (!stillActive) return null;
          // The terminal event goes after whatever is stored, even if another writer (a process
          // that lost its lock but still runs) appended events this writer never saw.
          const stored = await getLastEventSeq(transaction, { runId: this.run.id });
          return insertRunEvent(transaction, {
            runId: this.run.id,
            seq: Math.max(this.nextSeq, stored + 1),
            type,
            payload: redactSecrets(payload),
          });
        });
        if (!row) return false;
        this.nextSeq = row.seq + 1;
        await this.bus.publish(this.run.id, toRunEvent(row, this.run.appId));
        return true;
      } catch (error) {
        if (attempt >= 3 || !isUniqueViolation(error)) throw error;
      }
    }
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
      // An event emitted after the drain loop ended but before this callback ran found a flush
      // "in progress" and did not start one: start it now, or it would wait forever.
      if (this.pending.length > 0 && !this.failure) this.scheduleFlush();
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      let rows: EventRow[];
      try {
        rows = await insertRunEvents(this.handle.db, {
          events: batch.map(({ seq, type, payload }) => ({
            runId: this.run.id,
            seq,
            type,
            payload,
          })),
        });
      } catch (error) {
        // Nothing of this batch is stored, and later events would leave a gap: fail them all and
        // hand their seqs back, so the stream stays gapless for whatever is written next.
        const failed = [...batch, ...this.pending];
        this.pending = [];
        this.nextSeq = batch[0].seq;
        this.failure ??= error;
        for (const event of failed) event.reject(error);
        return;
      }
      const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
      for (const pending of batch) {
        const row = bySeq.get(pending.seq);
        if (!row) {
          pending.reject(new Error(`run event ${pending.seq} was not returned by its insert`));
          continue;
        }
        const event = toRunEvent(row, this.run.appId);
        try {
          await this.bus.publish(this.run.id, event);
        } finally {
          // Stored is what matters to the emitter; a failed wake-up only delays followers.
          pending.resolve(event);
        }
      }
    }
  }
}

export function toRunEvent(row: EventRow, appId: string): RunEvent {
  return {
    seq: row.seq,
    run_id: row.runId,
    app_id: appId,
    type: row.type as RunEventType,
    ts: row.createdAt.toISOString(),
    payload: row.payload,
  };
}

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } };
  return candidate.code === "23505" || candidate.cause?.code === "23505";
}

export { isTerminalRunEventType };
