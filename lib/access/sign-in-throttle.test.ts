import { describe, expect, it } from "vitest";
import { SignInThrottle } from "./sign-in-throttle";

describe("SignInThrottle", () => {
  const limits = { windowMilliseconds: 60_000, failuresPerAddress: 3, failuresOverall: 5 };

  it("lets an address fail a few times, then makes it wait until the oldest failure ages out", () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(limits, () => now);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(throttle.retryAfterSeconds("10.0.0.1")).toBe(0);
      throttle.recordFailure("10.0.0.1");
      now += 1_000;
    }
    expect(throttle.retryAfterSeconds("10.0.0.1")).toBe(57);
    expect(throttle.retryAfterSeconds("10.0.0.2")).toBe(0);
    now += 57_000;
    expect(throttle.retryAfterSeconds("10.0.0.1")).toBe(0);
  });

  it("caps failures over all addresses, so guesses spread over many addresses are slowed too", () => {
    const now = 5_000_000;
    const throttle = new SignInThrottle(limits, () => now);
    for (let address = 0; address < 5; address += 1) throttle.recordFailure(`10.0.1.${address}`);
    expect(throttle.retryAfterSeconds("10.0.9.9")).toBe(60);
  });

  it("forgets an address's failures when it signs in", () => {
    const throttle = new SignInThrottle(limits, () => 42);
    for (let attempt = 0; attempt < 3; attempt += 1) throttle.recordFailure("10.0.0.1");
    throttle.recordSuccess("10.0.0.1");
    expect(throttle.retryAfterSeconds("10.0.0.1")).toBe(0);
  });
});
