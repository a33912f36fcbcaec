import { createParser } from "eventsource-parser";

/** The JSON of one run event frame (PRODUCT.md §3). */
export interface RunEventData {
  seq: number;
  run_id: string;
  app_id: string;
  type: string;
  ts: string;
  payload: Record<string, unknown>;
}

/** One parsed SSE frame; `data` is the frame's JSON. */
export interface SseFrame<Data = RunEventData> {
  id: string | undefined;
  event: string | undefined;
  data: Data;
  /** `performance.now()` when the chunk that completed this frame arrived. */
  receivedAt: number;
}

export interface SseConnection<Data = RunEventData> {
  status: number;
  headers: Headers;
  /** Comment lines (`: keep-alive` arrives as "keep-alive"), in order, as they are read. */
  comments: string[];
  /** The frames in order. Ends when the server closes the stream or after `close()`. */
  frames: AsyncGenerator<SseFrame<Data>, void, undefined>;
  /** Drops the connection at once, like a closed tab; frames not yet read are lost. */
  close(): void;
}

export interface OpenSseOptions {
  /** Sent as the `Last-Event-ID` header. */
  lastEventId?: string | number;
  headers?: Record<string, string>;
  /** Aborting it drops the connection, wherever the reader is. */
  signal?: AbortSignal;
}

/**
 * Opens an SSE stream with `fetch` and parses it with eventsource-parser. Answers other than a
 * 200 event stream throw, with the body, so a test sees why.
 */
export async function openSse<Data = RunEventData>(
  url: string,
  options: OpenSseOptions = {},
): Promise<SseConnection<Data>> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers };
  if (options.lastEventId !== undefined) headers["last-event-id"] = String(options.lastEventId);
  const response = await fetch(url, { headers, signal: controller.signal });
  const contentType = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || !contentType.startsWith("text/event-stream") || !response.body) {
    const body = await response.text();
    controller.abort();
    throw new Error(
      `Expected a 200 event stream from ${url}, got ${response.status} ${contentType}: ${body.slice(0, 500)}`,
    );
  }
  const comments: string[] = [];
  const body = response.body;
  const close = () => controller.abort();
  async function* frames(): AsyncGenerator<SseFrame<Data>, void, undefined> {
    const parsed: SseFrame<Data>[] = [];
    let receivedAt = 0;
    const parser = createParser({
      onEvent(message) {
        let data: Data;
        try {
          data = JSON.parse(message.data) as Data;
        } catch (cause) {
          throw new Error(
            `SSE frame ${message.id ?? "(no id)"} carries data that is not JSON: ${message.data.slice(0, 200)}`,
            { cause },
          );
        }
        parsed.push({ id: message.id, event: message.event, data, receivedAt });
      },
      onComment(comment) {
        comments.push(comment.trim());
      },
    });
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<string>;
        try {
          chunk = await reader.read();
        } catch (error) {
          // Our own disconnect ends the frames; any other read failure is the test's business.
          if (controller.signal.aborted) return;
          throw error;
        }
        if (chunk.done) return;
        receivedAt = performance.now();
        parser.feed(chunk.value);
        while (parsed.length > 0) {
          yield parsed.shift() as SseFrame<Data>;
        }
      }
    } finally {
      options.signal?.removeEventListener("abort", onOuterAbort);
      controller.abort();
    }
  }
  return { status: response.status, headers: response.headers, comments, frames: frames(), close };
}

export interface CollectRunOptions {
  /** Replay starts after this seq, sent as `Last-Event-ID`. */
  lastEventId?: number;
  /** Sent as `?after=` instead of the header. */
  after?: number;
  /** Disconnect after this many frames, or after the first frame the predicate accepts. */
  stopAfter?: number | ((frame: SseFrame) => boolean);
  /** Fails instead of hanging when the stream neither ends nor stops in time. */
  timeoutMs?: number;
}

export interface CollectedRun {
  frames: SseFrame[];
  /** The frames' JSON, in order. */
  events: RunEventData[];
  comments: string[];
  headers: Headers;
  /** True when the server ended the stream; false when `stopAfter` disconnected first. */
  endedByServer: boolean;
}

/** The stream URL of a run. */
export function runStreamUrl(
  server: { url: string },
  appId: string,
  runId: string,
  after?: number,
): string {
  const query = after === undefined ? "" : `?after=${after}`;
  return `${server.url}/api/apps/${appId}/coding-agent/runs/${runId}/stream${query}`;
}

/**
 * Reads a run's stream until the server ends it (after the terminal event) or until `stopAfter`,
 * then disconnects. Throws on timeout, naming the last frame seen.
 */
export async function collectRun(
  server: { url: string },
  appId: string,
  runId: string,
  options: CollectRunOptions = {},
): Promise<CollectedRun> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const connection = await openSse(runStreamUrl(server, appId, runId, options.after), {
    lastEventId: options.lastEventId,
    signal: timeout,
  });
  const frames: SseFrame[] = [];
  const shouldStop =
    typeof options.stopAfter === "function"
      ? options.stopAfter
      : options.stopAfter === undefined
        ? () => false
        : (
            (limit: number) => () =>
              frames.length >= limit
          )(options.stopAfter);
  let endedByServer = true;
  for await (const frame of connection.frames) {
    frames.push(frame);
    if (shouldStop(frame)) {
      endedByServer = false;
      connection.close();
      break;
    }
  }
  if (timeout.aborted) {
    const last = frames.at(-1);
    throw new Error(
      `The stream of run ${runId} did not end within ${timeoutMs} ms; ${frames.length} frames, the last ${last ? `${last.id} ${last.event}` : "none"}.`,
    );
  }
  return {
    frames,
    events: frames.map((frame) => frame.data),
    comments: connection.comments,
    headers: connection.headers,
    endedByServer,
  };
}
