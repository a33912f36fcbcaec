import "server-only";
import { type DatabaseHandle, perHandle } from "@/db/client";
import { insertRunEvents } from "@/db/queries/runs";
import type { RunEventRow } from "@/db/schema";

interface QueuedRows {
  rows: RunEventRow[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Stores the events of every run this process executes, several runs' batches in one INSERT.
 *
 * Why: with twenty runs streaming, each run's writer used to send its own small INSERT every turn
 * of the event loop; on PGlite a statement costs ~0.4–0.7 ms of CPU whatever its size, and those
 * statements were a third of the server's work. Writers now start their writes on one shared turn
 * (`nextTurn`), hand their rows over (`insert`), and everything handed over before the microtasks
 * of that turn run out goes as one statement. Nothing waits longer than before: the statement is
 * sent as soon as the writers of that turn have had their say.
 *
 * The statement goes through the database's urgent lane (`DatabaseHandle.urgent`): with twenty
 * runs starting at once, it used to queue behind their setup queries, which held a whole burst of
 * text back by 100–250 ms.
 *
 * One run's rows can fail a shared statement (a seq another process's writer already took, say);
 * then each run's rows are stored on their own, so only that run sees the error.
 */
export class RunEventBatcher {
  private queue: QueuedRows[] = [];
  private turn: Promise<void> | undefined;
  /** Statements sent and not yet answered. */
  private inFlight = 0;

  constructor(private readonly handle: DatabaseHandle) {}

  /** Resolves on the next turn of the event loop: one turn shared by every writer that asks now. */
  nextTurn(): Promise<void> {
    this.turn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turn = undefined;
        resolve();
      }),
    );
    return this.turn;
  }

  /**
   * Stores `rows` (all of them or none), together with whatever other writers hand over now — or,
   * when every urgent connection is busy, with whatever they hand over until one is free.
   */
  insert(rows: RunEventRow[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      // After the microtasks already queued, which are the other writers of this turn.
      if (this.queue.length === 1) queueMicrotask(() => this.startWrites());
    });
  }

  /**
   * Sends what is queued as one statement, unless as many statements are in flight as the
   * database has urgent connections: then the rows wait in the queue, where later writers' rows
   * join them, instead of in the driver's queue as a statement of their own. Under load that
   * means fewer, larger statements rather than a growing line of small ones.
   */
  private startWrites(): void {
    if (this.queue.length === 0 || this.inFlight >= this.handle.urgentConnections) return;
    const group = this.queue;
    this.queue = [];
    this.inFlight += 1;
    void this.write(group).finally(() => {
      this.inFlight -= 1;
      this.startWrites();
    });
  }

  private async write(group: QueuedRows[]): Promise<void> {
    const insertGroup = () =>
      this.handle.urgent((db) =>
        insertRunEvents(db, { events: group.flatMap((entry) => entry.rows) }),
      );
    try {
      await retryWhileConnectionLost(insertGroup);
      for (const entry of group) entry.resolve();
    } catch (error) {
      if (group.length === 1) {
        group[0].reject(error);
        return;
      }
      await Promise.all(
        group.map(async (entry) => {
          try {
            await this.handle.urgent((db) => insertRunEvents(db, { events: entry.rows }));
            entry.resolve();
          } catch (ownError) {
            entry.reject(ownError);
          }
        }),
      );
    }
  }
}

const connectionLostCodes = new Set([
  "57P01", // admin_shutdown: pg_terminate_backend, a restart
  "57P02",
  "57P03",
  "08000",
  "08003",
  "08006",
  "ECONNRESET",
  "EPIPE",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

/**
 * Runs `work` again, a few times with short pauses, while it fails because its connection died
 * under it (a restarted or terminated backend aborted the statement): the pool notices the other
 * dead connections and reconnects meanwhile, and the runs keep streaming. Work that committed
 * after all and is repeated fails on its own terms (duplicate seqs), which its caller handles.
 */
export async function retryWhileConnectionLost<T>(work: () => Promise<T>): Promise<T> {
  for (const pauseMs of [50, 250, 1000]) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return work();
}

/** True for errors meaning the connection went away under a statement, not that it was wrong. */
export function isConnectionLost(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } } | null;
  return (
    connectionLostCodes.has(candidate?.code ?? "") ||
    connectionLostCodes.has(candidate?.cause?.code ?? "")
  );
}

/** The one batcher of a database in this process. */
export function getRunEventBatcher(handle: DatabaseHandle): RunEventBatcher {
  return perHandle("runEventBatcher", handle, () => new RunEventBatcher(handle));
}
