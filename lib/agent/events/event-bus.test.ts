import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { testDatabases } from "@/test/support/databases";
import {
  getRunEventBus,
  joinNotificationEntries,
  type RunEventSignal,
  rowNotifications,
} from "./event-bus";
import type { RunEvent } from "./event-types";

describe("rowNotifications", () => {
  it("packs writes under Postgres's limit, naming their runs first, and leaves out what cannot fit", () => {
    const writes = Array.from({ length: 60 }, (_, index) => {
      const runId = crypto.randomUUID();
      return { runId, events: events(runId, [index + 1]) };
    });
    const tooLarge = {
      runId: "large",
      events: events("large", [1]).map((event) => ({
        ...event,
        payload: { text: "é".repeat(5_000) },
      })),
    };
    const payloads = rowNotifications("sender01", [...writes, tooLarge]);
    expect(payloads.length).toBeGreaterThan(1);
    const carried: string[] = [];
    for (const payload of payloads) {
      expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
      const [head, ids, json] = payload.split("|");
      expect(head).toBe("rows:sender01");
      const parts = JSON.parse(json) as [string, RunEvent[]][];
      expect(parts.map(([runId]) => runId)).toEqual(ids.split(","));
      carried.push(...ids.split(","));
    }
    expect(carried).toEqual(writes.map((write) => write.runId));
  });
});

describe("joinNotificationEntries", () => {
  it("joins a turn's entries into one payload when they fit", () => {
    expect(joinNotificationEntries([])).toEqual([]);
    expect(joinNotificationEntries(["a@1", "b@2"])).toEqual(["events:a@1,b@2"]);
  });

  it("splits entries over payloads under Postgres's 8,000-byte limit, keeping every one in order", () => {
    const entries = Array.from(
      { length: 400 },
      (_, index) => `${crypto.randomUUID()}@${index + 1}`,
    );
    const payloads = joinNotificationEntries(entries);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) {
      expect(payload.startsWith("events:")).toBe(true);
      expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
    }
    expect(payloads.flatMap((payload) => payload.slice("events:".length).split(","))).toEqual(
      entries,
    );
  });
});

function events(runId: string, seqs: number[]): RunEvent[] {
  return seqs.map((seq) => ({
    seq,
    run_id: runId,
    app_id: "app",
    type: "assistant.delta",
    ts: new Date().toISOString(),
    payload: { text: String(seq) },
  }));
}

/** Collects the signals of some runs until each has seen `last` (or the time runs out). */
function collect(
  subscribe: (runId: string, listener: (signal: RunEventSignal) => void) => () => void,
  last: Record<string, number>,
) {
  const signals: Record<string, RunEventSignal[]> = {};
  const unsubscribes: (() => void)[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("signals did not arrive")), 5_000);
    for (const runId of Object.keys(last)) {
      signals[runId] = [];
      unsubscribes.push(
        subscribe(runId, (signal) => {
          signals[runId].push(signal);
          if (Object.entries(last).every(([id, seq]) => signals[id].at(-1)?.seq === seq)) {
            clearTimeout(timer);
            resolve();
          }
        }),
      );
    }
  });
  return {
    signals,
    done: done.finally(() => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    }),
  };
}

describe.each(testDatabases())("run event bus on $name", (database) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("wakes this process's followers with the stored events themselves", async () => {
    const bus = await getRunEventBus(handle);
    const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
    const { signals, done } = collect(bus.subscribe.bind(bus), { [first]: 2, [second]: 1 });
    await Promise.all([
      bus.publish(first, events(first, [1, 2])),
      bus.publish(second, events(second, [1])),
    ]);
    await done;
    expect(signals[first].map((signal) => [signal.seq, signal.event?.seq])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(signals[second].map((signal) => [signal.seq, signal.event?.seq])).toEqual([[1, 1]]);
  });
});

describe.each(testDatabases().filter((database) => database.name === "postgres"))(
  "run event bus across processes on $name",
  (database) => {
    let writer: DatabaseHandle;
    let follower: DatabaseHandle;

    beforeAll(async () => {
      writer = await database.open();
      follower = await database.open();
    });
    afterAll(async () => {
      await writer?.close();
      await follower?.close();
    });

    it("hands another process the stored events of every run that wrote in a turn", async () => {
      const writerBus = await getRunEventBus(writer);
      const followerBus = await getRunEventBus(follower);
      const runIds = Array.from({ length: 250 }, () => crypto.randomUUID());
      const last = Object.fromEntries(runIds.map((runId, index) => [runId, (index % 3) + 1]));
      const { signals, done } = collect(followerBus.subscribe.bind(followerBus), last);
      // One turn: 250 runs' events do not fit one notification, so this also crosses a split.
      await Promise.all(
        runIds.map((runId, index) =>
          writerBus.publish(
            runId,
            events(
              runId,
              Array.from({ length: (index % 3) + 1 }, (_, seq) => seq + 1),
            ),
          ),
        ),
      );
      await done;
      for (const runId of runIds) {
        // The events themselves, in order, so a remote follower need not read them back; the
        // run's highest seq follows them (and may not have arrived yet).
        const carried = signals[runId].filter((signal) => signal.event);
        expect(signals[runId].slice(carried.length)).toEqual(
          signals[runId].length > carried.length ? [{ seq: last[runId] }] : [],
        );
        expect(carried).toEqual(
          events(
            runId,
            Array.from({ length: last[runId] }, (_, seq) => seq + 1),
          ).map((event) => ({ seq: event.seq, event: { ...event, ts: expect.any(String) } })),
        );
      }
    });

    it("sends each run's highest seq too, and only the seq for events too large to carry", async () => {
      const writerBus = await getRunEventBus(writer);
      const followerBus = await getRunEventBus(follower);
      const runId = crypto.randomUUID();
      const large = events(runId, [1]).map((event) => ({
        ...event,
        payload: { text: "x".repeat(9_000) },
      }));
      const { signals, done } = collect(followerBus.subscribe.bind(followerBus), { [runId]: 1 });
      await writerBus.publish(runId, large);
      await done;
      // Read from run_event instead: the notification names the seq, not the event.
      expect(signals[runId]).toEqual([{ seq: 1 }]);
    });
  },
);
