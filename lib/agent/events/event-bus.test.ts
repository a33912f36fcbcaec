import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { testDatabases } from "@/test/support/databases";
import { getRunEventBus, joinNotificationEntries, type RunEventSignal } from "./event-bus";
import type { RunEvent } from "./event-types";

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

    it("tells another process every run that wrote in a turn, with each run's highest seq", async () => {
      const writerBus = await getRunEventBus(writer);
      const followerBus = await getRunEventBus(follower);
      const runIds = Array.from({ length: 250 }, () => crypto.randomUUID());
      const last = Object.fromEntries(runIds.map((runId, index) => [runId, index + 2]));
      const { signals, done } = collect(followerBus.subscribe.bind(followerBus), last);
      // One turn: 250 runs' ids do not fit one notification, so this also crosses a split.
      await Promise.all(
        runIds.map((runId, index) =>
          writerBus.publish(
            runId,
            events(
              runId,
              Array.from({ length: index + 2 }, (_, seq) => seq + 1),
            ),
          ),
        ),
      );
      await done;
      for (const runId of runIds) {
        // Remote followers get the seq to read up to, never the event (they read run_event).
        expect(signals[runId]).toEqual([{ seq: last[runId] }]);
      }
    });
  },
);
