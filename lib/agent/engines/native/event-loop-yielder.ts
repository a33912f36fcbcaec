import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * A model that bursts thousands of deltas hands them over in one long chain of microtasks, during
 * which no I/O runs: not the database write of the first deltas, not the SSE frames that carry
 * them. Called once per stream part, this gives the event loop a turn whenever the loop has held
 * it for longer than `budgetMs`, so the run's events reach the browser while the burst is still
 * being parsed instead of all at its end.
 */
export function createEventLoopYielder(budgetMs = 2): () => Promise<void> | undefined {
  let heldSince = performance.now();
  return () => {
    if (performance.now() - heldSince < budgetMs) return undefined;
    return nextTurn().then(() => {
      heldSince = performance.now();
    });
  };
}
