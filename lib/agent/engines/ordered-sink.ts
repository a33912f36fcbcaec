import type { EngineSink } from "./engine";

/**
 * An engine's events in the order the engine sent them. Structured events are awaited one after
 * another; a text delta goes straight to the sink unless structured events are still being
 * stored, in which case it waits behind them — so a tool row never lands after the text that
 * followed it, and the hot path (text with nothing pending) costs no promise.
 */
export class OrderedSink {
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly sink: EngineSink,
    private readonly onEmitFailure: (error: unknown) => void = () => undefined,
  ) {}

  /** Stores a structured event after those before it; resolves once stored. */
  emit(...args: Parameters<EngineSink["emit"]>): Promise<void> {
    this.pending += 1;
    const next = this.chain.then(() => this.sink.emit(...args));
    this.chain = next.then(
      () => {
        this.pending -= 1;
      },
      (error: unknown) => {
        this.pending -= 1;
        this.onEmitFailure(error);
      },
    );
    return next;
  }

  text(kind: "text" | "reasoning", delta: string): void {
    if (!delta) return;
    if (this.pending === 0) this.sink[kind](delta);
    else this.chain = this.chain.then(() => this.sink[kind](delta));
  }

  /** Resolves once everything sent so far has been handed to the sink. */
  settled(): Promise<void> {
    return this.chain;
  }
}
