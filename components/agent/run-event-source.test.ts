import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/agent/events/event-types";
import { recordedPatchRetryRun } from "./recorded-run-events";
import { createRunView, reduceRunEvent, reduceRunEvents } from "./run-event-reducer";
import { followRunEvents, type RunConnectionState, reconnectDelay } from "./run-event-source";

const encoder = new TextEncoder();

function frame(event: RunEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A response whose body sends these chunks, then ends (or errors, as a dropped connection). */
function streamResponse(chunks: string[], options: { drop?: boolean } = {}): Response {
  const queue = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    // One chunk per read, so a drop happens after what was sent has been read.
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (options.drop) controller.error(new TypeError("network error"));
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

describe("followRunEvents", () => {
  it("resumes after a dropped connection with Last-Event-ID, and the replay's duplicates change nothing", async () => {
    const events = recordedPatchRetryRun();
    const requests: (string | null)[] = [];
    const delays: number[] = [];
    const states: RunConnectionState[] = [];
    let view = createRunView(events[0].run_id);
    const responses = [
      // Frames split mid-line, a keep-alive comment, then the connection drops.
      () => {
        const text = `retry: 1000\n\n${events.slice(0, 5).map(frame).join(": keep-alive\n\n")}`;
        return streamResponse([text.slice(0, 40), text.slice(40, 333), text.slice(333)], {
          drop: true,
        });
      },
      // The server replays after Last-Event-ID; a proxy re-sent one frame twice.
      () => streamResponse([frame(events[4]), ...events.slice(5).map(frame)]),
    ];

    await followRunEvents({
      url: "/stream",
      lastSeq: () => view.lastSeq,
      onEvent: (event) => {
        view = reduceRunEvent(view, event);
      },
      onStateChange: (state) => states.push(state),
      signal: new AbortController().signal,
      fetch: async (_url, init) => {
        requests.push(new Headers(init?.headers).get("last-event-id"));
        const next = responses.shift();
        if (!next) throw new Error("no more responses");
        return next();
      },
      sleep: async (milliseconds) => {
        delays.push(milliseconds);
      },
    });

    expect(requests).toEqual(["0", "5"]);
    expect(delays).toHaveLength(1);
    expect(view).toEqual(reduceRunEvents(createRunView(events[0].run_id), events));
    expect(view.phase).toBe("completed");
    expect(states).toEqual([
      "connecting",
      "open",
      "reconnecting",
      "reconnecting",
      "open",
      "closed",
    ]);
  });

  it("stops at a 4xx instead of retrying, and backs off on 5xx", async () => {
    const states: RunConnectionState[] = [];
    const delays: number[] = [];
    let calls = 0;
    await followRunEvents({
      url: "/stream",
      lastSeq: () => 0,
      onEvent: () => {},
      onStateChange: (state) => states.push(state),
      signal: new AbortController().signal,
      fetch: async () => {
        calls += 1;
        if (calls < 3)
          return Response.json({ error: { code: "INTERNAL", message: "x" } }, { status: 503 });
        return Response.json(
          { error: { code: "NOT_FOUND", message: "Run not found." } },
          { status: 404 },
        );
      },
      sleep: async (milliseconds) => {
        delays.push(milliseconds);
      },
    });
    expect(calls).toBe(3);
    expect(delays).toHaveLength(2);
    expect(delays[1]).toBeGreaterThan(delays[0]);
    expect(states.at(-1)).toBe("failed");
  });

  it("gives up on a stream that keeps ending with nothing new (the run already ended)", async () => {
    let calls = 0;
    await followRunEvents({
      url: "/stream",
      lastSeq: () => 3,
      onEvent: () => {},
      signal: new AbortController().signal,
      fetch: async () => {
        calls += 1;
        return streamResponse(["retry: 1000\n\n"]);
      },
      sleep: async () => {},
    });
    expect(calls).toBe(2);
  });

  it("backs off exponentially to a ceiling, with jitter", () => {
    expect(reconnectDelay(1, () => 0.5)).toBe(500);
    expect(reconnectDelay(2, () => 0.5)).toBe(1_000);
    expect(reconnectDelay(5, () => 0.5)).toBe(8_000);
    expect(reconnectDelay(12, () => 0.5)).toBe(8_000);
    expect(reconnectDelay(1, () => 0)).toBe(400);
    expect(reconnectDelay(1, () => 1)).toBe(600);
  });
});
