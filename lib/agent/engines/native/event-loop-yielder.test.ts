import { describe, expect, it } from "vitest";
import { createEventLoopYielder } from "./event-loop-yielder";

describe("createEventLoopYielder", () => {
  it("lets a timer fire during a long chain of microtasks", async () => {
    const yieldTurn = createEventLoopYielder(1);
    let timerFiredAt = -1;
    setTimeout(() => {
      timerFiredAt = iteration;
    }, 0);
    let iteration = 0;
    const started = performance.now();
    // Without yielding, this loop never leaves the microtask queue, so the timer waits for it.
    for (; performance.now() - started < 50; iteration += 1) {
      await Promise.resolve();
      await yieldTurn();
    }
    expect(timerFiredAt).toBeGreaterThanOrEqual(0);
    expect(timerFiredAt).toBeLessThan(iteration);
  });

  it("does not yield while the budget lasts", () => {
    const yieldTurn = createEventLoopYielder(60_000);
    expect(yieldTurn()).toBeUndefined();
  });
});
