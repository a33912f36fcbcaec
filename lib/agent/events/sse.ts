import type { RunEvent } from "./event-types";

const encoder = new TextEncoder();

export const sseHeaders = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform keeps compression proxies (and Next's own gzip) from buffering the stream.
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
  connection: "keep-alive",
} as const;

/** One SSE frame with real newlines; JSON never contains a raw newline, so one data line suffices. */
export function encodeEventFrame(event: RunEvent): Uint8Array {
  return encoder.encode(
    `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`,
  );
}

export function encodeComment(text: string): Uint8Array {
  return encoder.encode(`: ${text}\n\n`);
}

export function encodeRetry(milliseconds: number): Uint8Array {
  return encoder.encode(`retry: ${milliseconds}\n\n`);
}
