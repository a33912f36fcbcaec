import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { PriorityLock } from "./priority-lock";

/** Work that records when it ran and holds the lock until `release` is called. */
function heldWork(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(),
    work: async () => {
      log.push(name);
      await done;
      return name;
    },
  };
}

describe("PriorityLock", () => {
  it("runs one holder at a time, urgent work before normal work that waited longer", async () => {
    const lock = new PriorityLock();
    const log: string[] = [];
    const first = heldWork(log, "first");
    const normalA = heldWork(log, "normal A");
    const normalB = heldWork(log, "normal B");
    const urgent = heldWork(log, "urgent");
    const results = [
      lock.run(first.work),
      lock.run(normalA.work),
      lock.run(normalB.work),
      lock.run(urgent.work, "urgent"),
    ];
    await nextTurn();
    expect(log).toEqual(["first"]);
    expect(lock.queued).toEqual({ urgent: 1, normal: 2 });
    first.release();
    await results[0];
    await nextTurn();
    expect(log).toEqual(["first", "urgent"]);
    urgent.release();
    normalA.release();
    normalB.release();
    expect(await Promise.all(results)).toEqual(["first", "normal A", "normal B", "urgent"]);
    expect(log).toEqual(["first", "urgent", "normal A", "normal B"]);
  });

  it("hands over on a later turn, so urgent work arriving in between still goes first", async () => {
    const lock = new PriorityLock();
    const log: string[] = [];
    const first = heldWork(log, "first");
    const normal = heldWork(log, "normal");
    const running = lock.run(first.work);
    const waiting = lock.run(normal.work);
    await nextTurn();
    first.release();
    await running;
    // The holder is done, and the lock has not been handed to the normal work yet.
    const urgent = lock.run(async () => {
      log.push("urgent");
    }, "urgent");
    normal.release();
    await Promise.all([urgent, waiting]);
    expect(log).toEqual(["first", "urgent", "normal"]);
  });

  it("lets the event loop take in I/O between holders instead of draining the queue in one go", async () => {
    const lock = new PriorityLock();
    const log: string[] = [];
    // A due timer stands for a socket read: with hand-overs in microtasks it would fire only
    // after all five holders, as PGlite's own lock did.
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        log.push("timer");
        resolve();
      }, 0),
    );
    const queued = Array.from({ length: 5 }, (_, index) =>
      lock.run(async () => {
        log.push(`work ${index}`);
        // Busy, as a PGlite statement keeps the event loop: the timer is due when this ends.
        const until = performance.now() + 3;
        while (performance.now() < until);
      }),
    );
    await Promise.all([...queued, timer]);
    expect(log).toEqual(["work 0", "timer", "work 1", "work 2", "work 3", "work 4"]);
  });

  it("releases the lock when work throws", async () => {
    const lock = new PriorityLock();
    await expect(
      lock.run(async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await lock.run(async () => "after")).toBe("after");
    expect(lock.queued).toEqual({ urgent: 0, normal: 0 });
  });
});
