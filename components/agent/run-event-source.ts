import { createParser } from "eventsource-parser";
import {
  isTerminalRunEventType,
  type RunEvent,
  runEventSchema,
} from "@/lib/agent/events/event-types";
import { readApiError } from "./agent-api-client";

export type RunConnectionState = "connecting" | "open" | "reconnecting" | "closed" | "failed";

export interface RunEventSourceOptions {
  url: string;
  /** The resume point, read before every (re)connect: the highest seq applied without gaps. */
  lastSeq: () => number;
  onEvent: (event: RunEvent) => void;
  onStateChange?: (state: RunConnectionState, error?: Error) => void;
  signal: AbortSignal;
  /** Injected by tests. */
  fetch?: typeof fetch;
  /** Injected by tests; waits `milliseconds` unless the signal aborts first. */
  sleep?: (milliseconds: number, signal: AbortSignal) => Promise<void>;
}

/** Backoff between reconnects: 0.5 s doubling to 8 s, with jitter so tabs do not retry in step. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

function defaultSleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Follows a run's SSE stream over `fetch` until its terminal event: parses frames with
 * eventsource-parser, validates each event, and when the connection drops reconnects with
 * `Last-Event-ID` set to the last applied seq, backing off between attempts. Duplicates from a
 * replay are the reducer's to ignore. Resolves when the run has ended, the caller aborts, or
 * the server refuses the stream (a 4xx: retrying cannot help).
 */
export async function followRunEvents(options: RunEventSourceOptions): Promise<void> {
  const fetchImplementation = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const { signal } = options;
  let attempt = 0;
  let finished = false;
  // The server closes a finished run's stream after the replay; twice in a row with nothing new
  // means there is nothing more to follow (the run's row, not its stream, has the final word).
  let emptyEndings = 0;

  while (!signal.aborted && !finished) {
    if (attempt > 0) {
      options.onStateChange?.("reconnecting");
      await sleep(reconnectDelay(attempt), signal);
      if (signal.aborted) break;
    } else {
      options.onStateChange?.("connecting");
    }
    attempt += 1;
    try {
      const response = await fetchImplementation(options.url, {
        credentials: "same-origin",
        cache: "no-store",
        headers: { accept: "text/event-stream", "last-event-id": String(options.lastSeq()) },
        signal,
      });
      if (!response.ok) {
        const error = await readApiError(response);
        if (response.status >= 400 && response.status < 500 && response.status !== 429) {
          options.onStateChange?.("failed", error);
          return;
        }
        throw error;
      }
      if (!response.body) throw new Error("The run stream has no body.");
      options.onStateChange?.("open");

      let received = 0;
      const parser = createParser({
        onEvent: (message) => {
          const event = parseRunEvent(message.data);
          if (!event) return;
          received += 1;
          // Any event proves the connection works: the next drop starts the backoff afresh.
          attempt = 1;
          options.onEvent(event);
          if (isTerminalRunEventType(event.type)) finished = true;
        },
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      try {
        while (!finished) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } finally {
        // The terminal event arrived (or the caller left): stop reading what is left.
        reader.cancel().catch(() => undefined);
      }
      emptyEndings = received === 0 ? emptyEndings + 1 : 0;
      if (!finished && emptyEndings >= 2) break;
    } catch (error) {
      if (signal.aborted) break;
      options.onStateChange?.("reconnecting", error instanceof Error ? error : undefined);
    }
  }
  if (!signal.aborted) options.onStateChange?.("closed");
}

function parseRunEvent(data: string): RunEvent | null {
  if (!data) return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = runEventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
