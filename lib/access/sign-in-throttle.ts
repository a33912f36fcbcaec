/**
 * Slows token guessing: each client address may fail sign-in a few times per window, and all
 * addresses together a bounded number (against guesses spread over many addresses). In memory,
 * per process: a restart forgets, which costs an attacker a restart they cannot cause.
 */
export interface ThrottleLimits {
  windowMilliseconds: number;
  failuresPerAddress: number;
  failuresOverall: number;
}

export const signInLimits: ThrottleLimits = {
  windowMilliseconds: 10 * 60 * 1000,
  failuresPerAddress: 10,
  failuresOverall: 100,
};

export class SignInThrottle {
  private readonly failuresByAddress = new Map<string, number[]>();
  private overall: number[] = [];

  constructor(
    private readonly limits: ThrottleLimits = signInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the address must wait before trying again, or 0 when it may try now. */
  retryAfterSeconds(address: string): number {
    const now = this.now();
    const since = now - this.limits.windowMilliseconds;
    this.overall = this.overall.filter((time) => time > since);
    const own = (this.failuresByAddress.get(address) ?? []).filter((time) => time > since);
    if (own.length === 0) this.failuresByAddress.delete(address);
    else this.failuresByAddress.set(address, own);
    const waits: number[] = [];
    if (own.length >= this.limits.failuresPerAddress) {
      waits.push(own[own.length - this.limits.failuresPerAddress] - since);
    }
    if (this.overall.length >= this.limits.failuresOverall) {
      waits.push(this.overall[this.overall.length - this.limits.failuresOverall] - since);
    }
    return waits.length === 0 ? 0 : Math.max(1, Math.ceil(Math.max(...waits) / 1000));
  }

  recordFailure(address: string): void {
    const now = this.now();
    this.overall.push(now);
    const own = this.failuresByAddress.get(address) ?? [];
    own.push(now);
    this.failuresByAddress.set(address, own);
  }

  recordSuccess(address: string): void {
    this.failuresByAddress.delete(address);
  }
}
