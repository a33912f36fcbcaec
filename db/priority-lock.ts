/** The two lanes of a `PriorityLock`: urgent work goes before any normal work still waiting. */
export type LockLane = "urgent" | "normal";

/**
 * A mutex with an urgent lane, handing over on the next turn of the event loop.
 *
 * Why: PGlite runs one statement at a time, in this process, and each one keeps the event loop
 * busy for its whole duration. With twenty runs starting at once their setup queries queued in
 * PGlite's own first-come lock, and a run's stream write (the text a person is waiting for) sat
 * behind all of them. Worse, each holder handed the lock straight to the next in a microtask, so
 * the backlog ran back to back without the event loop ever reading a socket: a model's next
 * deltas could not even be received until the whole queue had drained.
 *
 * Here urgent work goes first, and every hand-over waits for the next turn (`setImmediate`), so
 * network reads that arrived meanwhile are taken in and can queue their own urgent writes before
 * the next holder is picked. A holder keeps the lock for as long as its work runs (a transaction's
 * statements stay together).
 */
export class PriorityLock {
  private held = false;
  private readonly waiting: Record<LockLane, (() => void)[]> = { urgent: [], normal: [] };

  async run<T>(work: () => Promise<T>, lane: LockLane = "normal"): Promise<T> {
    if (this.held) {
      await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    } else {
      this.held = true;
    }
    try {
      return await work();
    } finally {
      this.handOver();
    }
  }

  /** Work waiting for the lock, by lane (for tests and diagnostics). */
  get queued(): Record<LockLane, number> {
    return { urgent: this.waiting.urgent.length, normal: this.waiting.normal.length };
  }

  private handOver(): void {
    if (this.waiting.urgent.length === 0 && this.waiting.normal.length === 0) {
      this.held = false;
      return;
    }
    // Still held across the gap, so nobody slips in between; the next holder is picked only
    // after the gap, so urgent work that arrived during it goes first.
    setImmediate(() => {
      const next = this.waiting.urgent.shift() ?? this.waiting.normal.shift();
      if (next) next();
      else this.held = false;
    });
  }
}
