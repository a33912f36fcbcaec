import "server-only";
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { type DatabaseHandle, perHandle } from "@/db/client";
import { logServerError } from "@/lib/log";
import type { RunEvent } from "./event-types";

/**
 * Wakes the followers of a run when new events are stored, and carries cancel requests to the
 * process executing a run. Within one process the stored event itself rides along, so a live
 * follower skips the read; across processes only the seq travels and followers read run_event.
 * Either way an event is published only after it is committed, and followers order by seq, so a
 * lost or duplicated signal can delay a frame but never lose or repeat one.
 */
export interface RunEventSignal {
  seq: number;
  /** The stored event, when it was published in this process. */
  event?: RunEvent;
}

export interface RunEventBus {
  /** Wakes followers for events just committed, in seq order (one write's batch at a time). */
  publish(runId: string, events: RunEvent[]): Promise<void>;
  subscribe(runId: string, listener: (signal: RunEventSignal) => void): () => void;
  publishCancel(runId: string): Promise<void>;
  subscribeCancel(listener: (runId: string) => void): () => void;
  /** Tells the process waiting on an approval request that it was decided. */
  publishApprovalDecided(approvalId: string): Promise<void>;
  subscribeApprovalDecided(approvalId: string, listener: () => void): () => void;
  close(): Promise<void>;
}

const channel = "patchwork_run_events";

class LocalRunEventBus implements RunEventBus {
  protected readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open stream; hundreds of viewers are normal, not a leak.
    this.emitter.setMaxListeners(0);
  }

  async publish(runId: string, events: RunEvent[]): Promise<void> {
    for (const event of events)
      this.emitter.emit(`event:${runId}`, { seq: event.seq, event } satisfies RunEventSignal);
  }

  subscribe(runId: string, listener: (signal: RunEventSignal) => void): () => void {
    this.emitter.on(`event:${runId}`, listener);
    return () => this.emitter.off(`event:${runId}`, listener);
  }

  async publishCancel(runId: string): Promise<void> {
    this.emitter.emit("cancel", runId);
  }

  subscribeCancel(listener: (runId: string) => void): () => void {
    this.emitter.on("cancel", listener);
    return () => this.emitter.off("cancel", listener);
  }

  async publishApprovalDecided(approvalId: string): Promise<void> {
    this.emitter.emit(`approval:${approvalId}`);
  }

  subscribeApprovalDecided(approvalId: string, listener: () => void): () => void {
    this.emitter.on(`approval:${approvalId}`, listener);
    return () => this.emitter.off(`approval:${approvalId}`, listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/**
 * Postgres LISTEN/NOTIFY, so a stream served by one process follows a run executed by another.
 * Local listeners are also woken directly, which spares same-process followers the round trip.
 */
class PostgresRunEventBus extends LocalRunEventBus {
  private readonly ready: Promise<{ unlisten(): Promise<void> }>;
  /** This turn's writes, notified together (see `queueNotification`). */
  private pendingWrites: { runId: string; events: RunEvent[] }[] = [];
  /** Tells this process's own `rows:` notifications, which it need not parse, from others'. */
  private readonly senderId = randomUUID().slice(0, 8);

  constructor(private readonly client: NonNullable<DatabaseHandle["postgresClient"]>) {
    super();
    this.ready = client.listen(channel, (payload) => this.receive(payload));
  }

  private receive(payload: string): void {
    const separator = payload.indexOf(":");
    const kind = payload.slice(0, separator);
    const rest = payload.slice(separator + 1);
    if (kind === "cancel") {
      this.emitter.emit("cancel", rest);
    } else if (kind === "approval") {
      this.emitter.emit(`approval:${rest}`);
    } else if (kind === "rows") {
      this.receiveRows(rest);
    } else if (kind === "events" || kind === "event") {
      // "events" names every run that wrote in one turn; "event" (one run) is what processes of
      // the previous version send, which may share the database during a rolling deploy.
      for (const entry of rest.split(",")) {
        const [runId, seq] = entry.split("@");
        this.emitter.emit(`event:${runId}`, { seq: Number(seq) } satisfies RunEventSignal);
      }
    }
  }

  /**
   * `rows:<sender>|<run>,<run>…|<JSON [[run, events]…]>`: the stored events themselves, so a stream
   * served here follows a run executed elsewhere without reading them back. Parsed only when
   * someone here follows one of the runs, and never for this process's own.
   */
  private receiveRows(rest: string): void {
    const first = rest.indexOf("|");
    const second = rest.indexOf("|", first + 1);
    if (first < 0 || second < 0 || rest.slice(0, first) === this.senderId) return;
    const runIds = rest.slice(first + 1, second).split(",");
    if (!runIds.some((runId) => this.emitter.listenerCount(`event:${runId}`) > 0)) return;
    let parts: [string, RunEvent[]][];
    try {
      parts = JSON.parse(rest.slice(second + 1));
    } catch {
      return; // A follower reads what it missed at its next signal.
    }
    for (const [runId, events] of parts)
      for (const event of events)
        this.emitter.emit(`event:${runId}`, { seq: event.seq, event } satisfies RunEventSignal);
  }

  /** Resolves once this process is listening; callers that must not miss a signal await it. */
  listening(): Promise<unknown> {
    return this.ready;
  }

  override async publish(runId: string, events: RunEvent[]): Promise<void> {
    const last = events.at(-1);
    if (!last) return;
    await super.publish(runId, events);
    this.queueNotification(runId, events);
  }

  /**
   * Sends what every run wrote in this turn in as few notifications as fit: the events themselves
   * (`rows:`, when they fit in a notification) and, for every run, its highest seq (`events:`,
   * what followers of earlier versions read up to during a rolling deploy, and what covers events
   * too large to carry). Twenty streaming runs publish thousands of times a second: one
   * `pg_notify` query each took a pooled connection per run per write, and one notification each
   * had Postgres queue, and every listening process parse, thousands of messages a second. Not
   * awaited by publishers: a lost notification only delays remote followers until their next read.
   */
  private queueNotification(runId: string, events: RunEvent[]): void {
    this.pendingWrites.push({ runId, events });
    if (this.pendingWrites.length > 1) return;
    queueMicrotask(() => {
      const writes = this.pendingWrites;
      this.pendingWrites = [];
      const payloads = [
        ...rowNotifications(this.senderId, writes),
        ...joinNotificationEntries(
          writes.map(({ runId: id, events: written }) => `${id}@${written.at(-1)!.seq}`),
        ),
      ];
      this
        .client`select pg_notify(${channel}, payload) from unnest(${payloads}::text[]) as payload`.catch(
        (error) => logServerError("run event notification failed", error),
      );
    });
  }

  override async publishCancel(runId: string): Promise<void> {
    await super.publishCancel(runId);
    await this.client`select pg_notify(${channel}, ${`cancel:${runId}`})`;
  }

  override async publishApprovalDecided(approvalId: string): Promise<void> {
    await super.publishApprovalDecided(approvalId);
    await this.client`select pg_notify(${channel}, ${`approval:${approvalId}`})`;
  }

  override async close(): Promise<void> {
    await (await this.ready).unlisten();
    await super.close();
  }
}

/** Postgres refuses notification payloads of 8,000 bytes or more. */
const maximumNotificationLength = 7_900;

/**
 * `rows:` notifications carrying the writes' events, as few as fit under Postgres's limit (in
 * bytes); a write too large for one on its own is left to the `events:` seq entries. Exported for
 * tests.
 */
export function rowNotifications(
  senderId: string,
  writes: { runId: string; events: RunEvent[] }[],
): string[] {
  const payloads: string[] = [];
  let runIds: string[] = [];
  let parts: string[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length > 0)
      payloads.push(`rows:${senderId}|${runIds.join(",")}|[${parts.join(",")}]`);
    runIds = [];
    parts = [];
    size = 0;
  };
  for (const write of writes) {
    const part = JSON.stringify([write.runId, write.events]);
    const cost = Buffer.byteLength(part) + write.runId.length + 2;
    if (cost + 32 > maximumNotificationLength) continue;
    if (size + cost + 32 > maximumNotificationLength) flush();
    runIds.push(write.runId);
    parts.push(part);
    size += cost;
  }
  flush();
  return payloads;
}

/**
 * `entries` joined with commas behind `events:`, in as few payloads as fit under Postgres's limit.
 * Exported for tests.
 */
export function joinNotificationEntries(entries: string[]): string[] {
  const prefix = "events:";
  const payloads: string[] = [];
  let current = "";
  for (const entry of entries) {
    if (current !== "" && current.length + 1 + entry.length > maximumNotificationLength) {
      payloads.push(current);
      current = "";
    }
    current = current === "" ? prefix + entry : `${current},${entry}`;
  }
  if (current !== "") payloads.push(current);
  return payloads;
}

/**
 * The bus for a database: in-process for PGlite (one process per data dir), LISTEN/NOTIFY for
 * Postgres. One per process, whichever module copy asks: a run executed by the queue worker
 * (started from instrumentation) must wake the streams the routes serve without a round trip.
 */
export async function getRunEventBus(handle: DatabaseHandle): Promise<RunEventBus> {
  const bus = perHandle<RunEventBus>("runEventBus", handle, () =>
    handle.postgresClient ? new PostgresRunEventBus(handle.postgresClient) : new LocalRunEventBus(),
  );
  // Not `instanceof`: another module copy's class is another class.
  const listening = (bus as Partial<PostgresRunEventBus>).listening;
  if (listening) await listening.call(bus);
  return bus;
}
