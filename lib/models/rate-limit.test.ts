import { describe, expect, it } from "vitest";
import { RateLimitReached, rateLimitResetAt } from "./rate-limit";

const now = Date.parse("2026-11-25T12:00:00Z");
const after = (headers: Record<string, string>) =>
  rateLimitResetAt(new Headers(headers), now)?.toISOString() ?? null;

describe("when a 429 says its limit resets", () => {
  it("reads retry-after-ms, retry-after in seconds and as a date", () => {
    expect(after({ "retry-after-ms": "2500" })).toBe("2026-11-25T12:00:02.500Z");
    expect(after({ "retry-after": "3" })).toBe("2026-11-25T12:00:03.000Z");
    expect(after({ "retry-after": "Wed, 25 Nov 2026 12:05:00 GMT" })).toBe(
      "2026-11-25T12:05:00.000Z",
    );
  });

  it("takes the exhausted limit's reset from OpenAI's and Anthropic's headers", () => {
    expect(
      after({
        "x-ratelimit-remaining-requests": "10",
        "x-ratelimit-reset-requests": "6m0s",
        "x-ratelimit-remaining-tokens": "0",
        "x-ratelimit-reset-tokens": "1.5s",
      }),
    ).toBe("2026-11-25T12:00:01.500Z");
    expect(
      after({
        "anthropic-ratelimit-requests-remaining": "0",
        "anthropic-ratelimit-requests-reset": "2026-11-25T12:00:40Z",
      }),
    ).toBe("2026-11-25T12:00:40.000Z");
    expect(after({ "x-ratelimit-reset": String(now / 1000 + 90) })).toBe(
      "2026-11-25T12:01:30.000Z",
    );
  });

  it("answers null when nothing says, or what it says is not a time", () => {
    expect(after({})).toBeNull();
    expect(after({ "retry-after": "soon" })).toBeNull();
    expect(after({ "x-ratelimit-reset-tokens": "6 minutes" })).toBeNull();
  });

  it("is found inside the errors the AI SDK wraps it in", () => {
    const reached = new RateLimitReached(new Date(now));
    const wrapped = Object.assign(new Error("retry failed"), {
      name: "AI_RetryError",
      errors: [new Error("first"), reached],
    });
    expect(RateLimitReached.find(new Error("outer", { cause: wrapped }))).toBe(reached);
    expect(RateLimitReached.find(new Error("unrelated"))).toBeNull();
  });
});
