/**
 * A provider said "too many requests" and when that ends. The run pauses (`waiting`) until then
 * instead of failing, or fails with `CODING_AGENT_RATE_LIMITED` if the wait is too long. Thrown
 * from the provider fetch, before the AI SDK's own retries (seconds apart, blind to the reset) can
 * spend the attempts.
 */
export class RateLimitReached extends Error {
  constructor(readonly resetAt: Date) {
    super(`The model provider is rate limiting requests until ${resetAt.toISOString()}.`);
    this.name = "RateLimitReached";
  }

  static isInstance(value: unknown): value is RateLimitReached {
    return value instanceof Error && value.name === "RateLimitReached" && "resetAt" in value;
  }

  /** The rate limit somewhere in an error's causes (the SDK wraps errors in retry errors). */
  static find(error: unknown, depth = 0): RateLimitReached | null {
    if (depth > 5 || !error || typeof error !== "object") return null;
    if (RateLimitReached.isInstance(error)) return error;
    const candidate = error as { cause?: unknown; lastError?: unknown; errors?: unknown[] };
    for (const inner of [candidate.cause, candidate.lastError, ...(candidate.errors ?? [])]) {
      const found = RateLimitReached.find(inner, depth + 1);
      if (found) return found;
    }
    return null;
  }
}

/** An OpenAI-style duration: `1s`, `6m0s`, `1h2m3.5s`, `250ms`. */
function parseDuration(value: string): number | null {
  const pattern = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let matched = "";
  for (const match of value.matchAll(pattern)) {
    const amount = Number(match[1]);
    total += amount * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as "ms"];
    matched += match[0];
  }
  return matched === value.trim() && matched !== "" ? total : null;
}

/** A reset given as seconds from now, a date, or (OpenAI) a duration; milliseconds from `now`. */
function parseReset(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const number = Number(trimmed);
    // Large numbers are epoch seconds (x-ratelimit-reset on some providers), small ones a delay.
    return number > 1e9 ? number * 1000 - now : number * 1000;
  }
  const duration = parseDuration(trimmed);
  if (duration !== null) return duration;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : date - now;
}

const resetHeaders: [reset: string, remaining: string | null][] = [
  ["x-ratelimit-reset-requests", "x-ratelimit-remaining-requests"],
  ["x-ratelimit-reset-tokens", "x-ratelimit-remaining-tokens"],
  ["anthropic-ratelimit-requests-reset", "anthropic-ratelimit-requests-remaining"],
  ["anthropic-ratelimit-tokens-reset", "anthropic-ratelimit-tokens-remaining"],
  ["anthropic-ratelimit-input-tokens-reset", "anthropic-ratelimit-input-tokens-remaining"],
  ["anthropic-ratelimit-output-tokens-reset", "anthropic-ratelimit-output-tokens-remaining"],
  ["x-ratelimit-reset", "x-ratelimit-remaining"],
];

/**
 * When a 429's limit resets, from its headers: `retry-after-ms`, `retry-after` (seconds or a
 * date), else the reset of the exhausted limit (OpenAI's and Anthropic's headers), else the latest
 * reset given. Null when the answer does not say.
 */
export function rateLimitResetAt(headers: Headers, now = Date.now()): Date | null {
  const retryAfterMs = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(retryAfterMs) && retryAfterMs >= 0)
    return new Date(now + retryAfterMs);
  const retryAfter = parseReset(headers.get("retry-after"), now);
  if (retryAfter !== null) return new Date(now + Math.max(0, retryAfter));
  let exhausted: number | null = null;
  let latest: number | null = null;
  for (const [resetName, remainingName] of resetHeaders) {
    const wait = parseReset(headers.get(resetName), now);
    if (wait === null) continue;
    latest = Math.max(latest ?? 0, wait);
    if (remainingName && headers.get(remainingName)?.trim() === "0")
      exhausted = Math.max(exhausted ?? 0, wait);
  }
  const wait = exhausted ?? latest;
  return wait === null ? null : new Date(now + Math.max(0, wait));
}
