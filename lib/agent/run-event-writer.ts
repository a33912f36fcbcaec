import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { finishRunIfActive, getLastEventSeq, insertRunEvent } from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import { redactSecrets } from "@/lib/redact-secrets";
import type { RunEventBus } from "./event-bus";
import {
  isTerminalRunEventType,
  type RunEvent,
  type RunEventType,
  type TerminalRunEventType,
} from "./event-types";

/**
 * The only writer of a run's events. Appends are chained, so `seq` is gapless and in call order,
 * and each event is committed to run_event before followers are woken.
 */
export class RunEventWriter {
  private chain: Promise<unknown> = Promise.resolve();
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

  /** Appends a non-terminal event. Ignored after the terminal event: a run ends exactly once. */
  emit(
    type: Exclude<RunEventType, TerminalRunEventType>,
    payload: Record<string, unknown>,
  ): Promise<RunEvent | null> {
    if (this.terminal) return Promise.resolve(null);
    return this.enqueue(async () => {
      const seq = this.nextSeq;
      const row = await insertRunEvent(this.handle.db, {
        runId: this.run.id,
        seq,
        type,
        payload: redactSecrets(payload),
      });
      this.nextSeq += 1;
      return row;
    });
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
    let ended = false;
    await this.enqueue(async () => {
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
          if (!row) return null;
          ended = true;
          this.nextSeq = row.seq + 1;
          return row;
        } catch (error) {
          if (attempt >= 3 || !isUniqueViolation(error)) throw error;
        }
      }
    });
    return ended;
  }

  /** Resolves when every event emitted so far is stored. */
  async flush(): Promise<void> {
    await this.chain.catch(() => undefined);
  }

  private enqueue<
    Row extends {
      runId: string;
      seq: number;
      type: string;
      payload: Record<string, unknown>;
      createdAt: Date;
    } | null,
  >(write: () => Promise<Row>): Promise<Row extends null ? RunEvent | null : RunEvent> {
    const result = this.chain.then(async () => {
      const row = await write();
      if (!row) return null;
      const event = toRunEvent(row, this.run.appId);
      await this.bus.publish(this.run.id, event);
      return event;
    });
    // The chain continues after a failed write; the failure still reaches this caller.
    this.chain = result.catch(() => undefined);
    return result as Promise<Row extends null ? RunEvent | null : RunEvent>;
  }
}

export function toRunEvent(
  row: {
    runId: string;
    seq: number;
    type: string;
    payload: Record<string, unknown>;
    createdAt: Date;
  },
  appId: string,
): RunEvent {
  return {
    seq: row.seq,
    run_id: row.runId,
    app_id: appId,
    type: row.type as RunEventType,
    ts: row.createdAt.toISOString(),
    payload: row.payload,
  };
}

export { isTerminalRunEventType };

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } };
  return candidate.code === "23505" || candidate.cause?.code === "23505";
}
