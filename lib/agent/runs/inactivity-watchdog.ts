/**
 * Calls `onSilence` when nothing happened for `idleMs` — paused while the run waits for a person
 * (an approval), which is not the engine going silent. One timer, re-armed for the remaining time.
 */
export class InactivityWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private lastActivity = performance.now();
  private paused = 0;
  private fired = false;

  constructor(
    private readonly idleMs: number,
    private readonly onSilence: () => void,
  ) {
    this.arm(idleMs);
  }

  touch(): void {
    this.lastActivity = performance.now();
    if (!this.timer && this.paused === 0 && !this.fired) this.arm(this.idleMs);
  }

  pause(): void {
    this.paused += 1;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    this.touch();
  }

  dispose(): void {
    this.fired = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(milliseconds: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.paused > 0 || this.fired) return;
      const silentFor = performance.now() - this.lastActivity;
      if (silentFor < this.idleMs) {
        this.arm(this.idleMs - silentFor);
        return;
      }
      this.fired = true;
      this.onSilence();
    }, milliseconds);
  }
}
