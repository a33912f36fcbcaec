/** A piece of streamed text and when it was seen, in milliseconds on the monotonic clock. */
export interface TimedText {
  text: string;
  at: number;
}

/**
 * Milliseconds on the system's monotonic clock (CLOCK_MONOTONIC on Linux), which every process
 * on the machine shares — unlike `performance.now()`, whose origin is each process's start — so
 * stamps taken in the benchmark's child processes compare with its own.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Converts this process's `performance.now()` stamps (the proxy's, the SSE client's) to it. */
export function performanceToMonotonic(): (stamp: number) => number {
  const offset = monotonicMs() - performance.now();
  return (stamp) => stamp + offset;
}
