import "server-only";
import type { DatabaseHandle, Executor } from "@/db/client";
import { deletePreRunCheckpoint } from "@/db/queries/checkpoints";
import {
  finishRunIfActive,
  getLastEventSeq,
  insertRunEventRows,
  type RunFinishGuard,
} from "@/db/queries/runs";
import type { AgentRunRow, RunEventRow } from "@/db/schema";
import { redactSecrets, SecretStreamRedactor } from "@/lib/redact-secrets";
import { getRunEventBus, type RunEventBus } from "./event-bus";
import { assertRunEventPayload, type RunEventPayload } from "./event-payloads";
import {
  isTerminalRunEventType,
  type RunEvent,
  type RunEventType,
  type TerminalRunEventType,
} from "./event-types";
import {
  getRunEventBatcher,
  type RunEventBatcher,
  retryWhileConnectionLost,
} from "./run-event-batcher";

/** Payloads are checked against the contract under test (vitest); production skips the cost. */
// Every event is checked against the contract in unit tests, and in the servers the integration
// suites start (PATCHWORK_VALIDATE_EVENTS=1, set by vitest.config.ts); never in production, where
// the check would cost time on the hot path.
const validatePayloads =
  process.env.NODE_ENV === "test" || process.env.PATCHWORK_VALIDATE_EVENTS === "1";

type NonTerminalRunEventType = Exclude<RunEventType, TerminalRunEventType>;

/** Text streams whose consecutive pieces may be stored as one event. */
const textDeltaTypes = ["assistant.delta", "reasoning.delta"] as const;
type TextDeltaType = (typeof textDeltaTypes)[number];

/** A coalesced delta stays a modest row and frame even when a model bursts a whole answer. */
const maximumCoalescedTextLength = 16_384;

interface PendingEvent {
  type: NonTerminalRunEventType;
  payload: Record<string, unknown>;
  /** Absent for background writes: a failure of theirs is kept in `failure` instead. */
  waiter?: { resolve(event: RunEvent): void; reject(error: unknown): void };
}

interface BatchRow {
  row: RunEventRow;
  waiters: PendingEvent[];
}

function isTextDelta(type: string): type is TextDeltaType {
  return (textDeltaTypes as readonly string[]).includes(type);
}

/**
 * The only writer of a run's events after `run.accepted`, which createRun stores with the run
 * (seq 1; the executor passes `lastSeq` 1). Events are committed to run_event before followers are
 * woken, with gapless seqs in call order. Writes are grouped: events that arrive while a write is
 * in flight go together in the next one, and consecutive text deltas among them become one event,
 * so a model bursting thousands of deltas costs a few rows and frames instead of one round trip
 * each — the latency a delta sees is at most the write in flight plus its own.
 */
export class RunEventWriter {
  private pending: PendingEvent[] = [];
  private flushing: Promise<void> | null = null;
  private failure: unknown = null;
  private nextSeq: number;
  private terminal: TerminalRunEventType | null = null;
  private readonly batcher: RunEventBatcher;
  /** One per text stream: a secret may be split across that stream's pieces. */
  private readonly redactors: Record<TextDeltaType, SecretStreamRedactor> = {
    "assistant.delta": new SecretStreamRedactor(),
    "reasoning.delta": new SecretStreamRedactor(),
  };

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly bus: RunEventBus,
    private readonly run: { id: string; appId: string },
    lastSeq: number,
  ) {
    this.nextSeq = lastSeq + 1;
    this.batcher = getRunEventBatcher(handle);
  }

  /**
   * A writer for a run whose events some other writer started (a sweeper, a cancel, a resumed
   * run): it appends after whatever is stored.
   */
  static async continuing(
    handle: DatabaseHandle,
    run: { id: string; appId: string },
  ): Promise<RunEventWriter> {
    return new RunEventWriter(
      handle,
      await getRunEventBus(handle),
      { id: run.id, appId: run.appId },
      await getLastEventSeq(handle.db, { runId: run.id }),
    );
  }

  get ended(): boolean {
    return this.terminal !== null;
  }

  /**
   * Appends a non-terminal event; resolves once it is stored and published (a text delta resolves
   * with the event it was stored in, or null while it is held back as a possible secret's start).
   * Ignored after the terminal event: a run ends exactly once.
   */
  emit<Type extends NonTerminalRunEventType>(
    type: Type,
    payload: RunEventPayload<Type>,
  ): Promise<RunEvent | null> {
    if (this.terminal) return Promise.resolve(null);
    if (this.failure) return Promise.reject(this.failure);
    if (validatePayloads) {
      try {
        assertRunEventPayload(type, payload);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const redacted = this.redact(type, payload);
    if (!redacted) return Promise.resolve(null);
    return new Promise<RunEvent>((resolve, reject) => {
      this.enqueue({ type, payload: redacted, waiter: { resolve, reject } });
    });
  }

  /**
   * Appends without waiting, for high-rate events (text deltas): a failure is kept and thrown by
   * the next `flush()`, so the model stream is never throttled to the database's round trip.
   */
  emitInBackground<Type extends NonTerminalRunEventType>(
    type: Type,
    payload: RunEventPayload<Type>,
  ): void {
    // No promise per delta: at thousands a second they are most of what a write costs here.
    if (this.terminal || this.failure) return;
    if (validatePayloads) assertRunEventPayload(type, payload);
    const redacted = this.redact(type, payload);
    if (redacted) this.enqueue({ type, payload: redacted });
  }

  /** Resolves when every event emitted so far is stored; throws the first failed write. */
  async flush(): Promise<void> {
    await this.settled();
    if (this.failure) throw this.failure;
  }

  /** Resolves when no write is in flight or waiting, whatever its outcome (for error paths). */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /**
   * Appends the terminal event and the run's final state in one transaction, so a reader never
   * sees a finished stream with a running run or the reverse. `inside`, when given, does its work
   * (landing the run's revision, its checkpoint) in that same transaction and may add events
   * before the terminal one; if the run is no longer active — or, with `guard`, no longer this
   * process's — nothing of it is kept. Returns false if the run had already ended: here, or by
   * another writer such as a sweeper.
   */
  async finish<Type extends TerminalRunEventType>(
    type: Type,
    payload: RunEventPayload<Type>,
    runUpdate: Partial<Omit<AgentRunRow, "id">>,
    options: { guard?: RunFinishGuard; inside?: FinishInside<Type> } = {},
  ): Promise<boolean> {
    if (this.terminal) return false;
    if (validatePayloads) assertRunEventPayload(type, payload);
    if (!this.failure) this.releaseHeldText();
    this.terminal = type;
    await this.settled();
    try {
      return await this.commitEvents(async (transaction, stage) => {
        const extra = options.inside ? await options.inside(transaction, stage) : undefined;
        const finalPayload = { ...payload, ...extra?.payload };
        if (validatePayloads) assertRunEventPayload(type, finalPayload);
        const finished = await finishRunIfActive(transaction, {
          id: this.run.id,
          guard: options.guard,
          ...redactSecrets({ ...runUpdate, ...extra?.runUpdate }),
          finishedAt: new Date(),
        });
        if (!finished) throw new RunNoLongerActive();
        // A run that changed nothing leaves no checkpoint: it would pin the draft as it is.
        if (!finished.resultRevisionId) {
          await deletePreRunCheckpoint(transaction, { runId: this.run.id });
        }
        stage.add(type, finalPayload);
      });
    } catch (error) {
      // The run is still to be ended (say, as failed, when landing its revision failed).
      this.terminal = null;
      throw error;
    }
  }

  /**
   * Runs `work` in one transaction with the events it adds, stored after whatever is stored and
   * published once committed. False when `work` found the run no longer active (it throws
   * `RunNoLongerActive`): then nothing is kept.
   */
  async commitEvents(
    work: (transaction: Executor, stage: TransactionEvents) => Promise<void>,
  ): Promise<boolean> {
    await this.settled();
    for (let attempt = 1; ; attempt += 1) {
      try {
        const rows = await retryWhileConnectionLost(() =>
          this.handle.db.transaction(async (transaction) => {
            const staged: { type: string; payload: Record<string, unknown> }[] = [];
            await work(transaction, {
              add: (type, payload) => {
                if (validatePayloads) assertRunEventPayload(type, payload);
                staged.push({ type, payload: redactSecrets(payload) as Record<string, unknown> });
              },
            });
            // The events go after whatever is stored, even if another writer (a process that lost
            // its lease but still runs) appended events this writer never saw.
            const stored = await getLastEventSeq(transaction, { runId: this.run.id });
            const first = Math.max(this.nextSeq, stored + 1);
            return insertRunEventRows(
              transaction,
              staged.map((event, index) => ({ runId: this.run.id, seq: first + index, ...event })),
            );
          }),
        );
        const last = rows.at(-1);
        if (last) this.nextSeq = last.seq + 1;
        if (rows.length > 0)
          await this.bus.publish(
            this.run.id,
            rows.map((row) => toRunEvent(row, this.run.appId)),
          );
        return true;
      } catch (error) {
        if (RunNoLongerActive.isInstance(error)) return false;
        if (attempt >= 3 || !isUniqueViolation(error)) throw error;
      }
    }
  }

  /**
   * The payload as it may be stored, or null for a text piece held back whole as a possible
   * secret's start. Any other event first releases held text: the text it held is complete.
   */
  private redact(
    type: NonTerminalRunEventType,
    payload: Record<string, unknown>,
  ): Record<string, unknown> | null {
    if (isTextDelta(type)) {
      const text = this.redactors[type].push(String(payload.text ?? ""));
      return text === "" ? null : { text };
    }
    this.releaseHeldText();
    return redactSecrets(payload);
  }

  private releaseHeldText(): void {
    for (const type of textDeltaTypes) {
      const text = this.redactors[type].end();
      if (text !== "") this.enqueue({ type, payload: { text } });
    }
  }

  private enqueue(event: PendingEvent): void {
    this.pending.push(event);
    this.scheduleFlush();
  }

  /**
   * Starts a write on the next turn of the event loop rather than at once, so a burst the model
   * delivered in one network read (already parsed, waiting in microtasks) is stored as one batch,
   * and on the turn every other run's writer uses, so their batches share one statement.
   */
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = this.batcher
      .nextTurn()
      .then(() => this.drain())
      .finally(() => {
        this.flushing = null;
        // An event emitted after the drain loop ended but before this callback ran found a flush
        // "in progress" and did not start one: start it now, or it would wait forever.
        if (this.pending.length > 0 && !this.failure) this.scheduleFlush();
      });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.coalesce(this.pending);
      this.pending = [];
      try {
        await this.batcher.insert(batch.map(({ row }) => row));
      } catch (error) {
        // Nothing of this batch is stored, and later events would leave a gap: fail them all and
        // hand their seqs back, so the stream stays gapless for whatever is written next.
        const failed = [...batch.flatMap(({ waiters }) => waiters), ...this.pending];
        this.pending = [];
        this.nextSeq = batch[0].row.seq;
        this.failure ??= error;
        for (const event of failed) event.waiter?.reject(error);
        return;
      }
      const events = batch.map(({ row }) => toRunEvent(row, this.run.appId));
      try {
        await this.bus.publish(this.run.id, events);
      } finally {
        // Stored is what matters to the emitter; a failed wake-up only delays followers.
        batch.forEach(({ waiters }, index) => {
          for (const { waiter } of waiters) waiter?.resolve(events[index]);
        });
      }
    }
  }

  /** Gives the batch its seqs, merging runs of the same text delta into one row each. */
  private coalesce(pending: PendingEvent[]): BatchRow[] {
    const createdAt = new Date();
    const batch: BatchRow[] = [];
    for (const event of pending) {
      const previous = batch.at(-1);
      // Text deltas' payloads are `{text}` strings: `redact` made them so.
      const text = event.payload.text as string;
      const previousText = previous?.row.payload.text as string;
      if (
        previous &&
        isTextDelta(event.type) &&
        previous.row.type === event.type &&
        previousText.length + text.length <= maximumCoalescedTextLength
      ) {
        previous.row.payload = { text: previousText + text };
        previous.waiters.push(event);
        continue;
      }
      batch.push({
        row: {
          runId: this.run.id,
          seq: this.nextSeq,
          type: event.type,
          payload: event.payload,
          createdAt,
        },
        waiters: [event],
      });
      this.nextSeq += 1;
    }
    return batch;
  }
}

export function toRunEvent(row: RunEventRow, appId: string): RunEvent {
  return {
    seq: row.seq,
    run_id: row.runId,
    app_id: appId,
    type: row.type as RunEventType,
    ts: row.createdAt.toISOString(),
    payload: row.payload,
  };
}

/** Events added inside a run's transaction, stored in the order added. */
export interface TransactionEvents {
  add<Type extends RunEventType>(type: Type, payload: RunEventPayload<Type>): void;
}

export type FinishInside<Type extends TerminalRunEventType> = (
  transaction: Executor,
  stage: TransactionEvents,
) => Promise<{
  payload?: Partial<RunEventPayload<Type>>;
  runUpdate?: Partial<Omit<AgentRunRow, "id">>;
} | void>;

/** Thrown inside a run's transaction to undo it: the run ended meanwhile (or is not ours). */
export class RunNoLongerActive extends Error {
  constructor() {
    super("The run is no longer active.");
    this.name = "RunNoLongerActive";
  }

  static isInstance(value: unknown): value is RunNoLongerActive {
    return value instanceof Error && value.name === "RunNoLongerActive";
  }
}

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } };
  return candidate.code === "23505" || candidate.cause?.code === "23505";
}

export { isTerminalRunEventType };
