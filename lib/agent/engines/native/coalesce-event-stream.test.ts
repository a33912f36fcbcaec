import { setImmediate as nextTurn } from "node:timers/promises";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  coalesceEventStream,
  type ProviderStreamFormat,
  type ResponseTextSink,
  type StreamTextKind,
  sdkTextHoldMs,
} from "./coalesce-event-stream";

const encoder = new TextEncoder();

function sse(data: unknown, event?: string): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${text}\n\n`;
}

function parseEvents(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

/** Runs `chunks` (bytes as the network would cut them) through the coalescer; the events out. */
async function coalesce(
  format: ProviderStreamFormat,
  chunks: Uint8Array[],
  sink?: ResponseTextSink,
): Promise<EventSourceMessage[]> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const text = await new Response(source.pipeThrough(coalesceEventStream(format, sink))).text();
  return parseEvents(text);
}

/** A sink that records what it is handed, one entry per hand-over. */
function recordingSink(): ResponseTextSink & { received: [StreamTextKind, string][] } {
  const received: [StreamTextKind, string][] = [];
  return {
    received,
    active: true,
    text(kind, text) {
      received.push([kind, text]);
    },
  };
}

const chat = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, finish_reason: null }],
  ...extra,
});

describe("coalesceEventStream (openai-chat)", () => {
  it("joins the text pieces that arrived together into one event, keeping the first's fields", async () => {
    const body =
      sse(chat({ role: "assistant", content: "Hel" })) +
      sse(chat({ content: "lo, " })) +
      sse(chat({ content: "wörld 日本 🙂" }));
    const events = await coalesce("openai-chat", [encoder.encode(body)]);
    expect(events.map((event) => JSON.parse(event.data))).toEqual([
      chat({ role: "assistant", content: "Hello, wörld 日本 🙂" }),
    ]);
  });

  it("ends a join at anything it does not fully understand, and keeps the order", async () => {
    const toolStart = chat({
      tool_calls: [
        { index: 0, id: "c1", type: "function", function: { name: "f", arguments: "" } },
      ],
    });
    const finish = {
      ...chat({}),
      choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
    };
    const usage = { ...chat({}), choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } };
    const body = [
      sse(chat({ reasoning_content: "think " })),
      sse(chat({ reasoning_content: "more" })),
      sse(chat({ content: "a" })),
      sse(chat({ content: "b" })),
      sse(toolStart),
      sse(chat({ content: "c" })),
      sse(chat({ content: "d" }, { x_vendor: 1 })),
      sse(chat({ content: "e" }, { id: "chatcmpl-2" })),
      sse(chat({ content: "f" }, { id: "chatcmpl-2" })),
      sse(finish),
      sse(usage),
      sse("[DONE]"),
    ].join("");
    const events = await coalesce("openai-chat", [encoder.encode(body)]);
    expect(events.map((event) => event.data)).toEqual([
      JSON.stringify(chat({ reasoning_content: "think more" })),
      JSON.stringify(chat({ content: "ab" })),
      JSON.stringify(toolStart),
      JSON.stringify(chat({ content: "c" })),
      JSON.stringify(chat({ content: "d" }, { x_vendor: 1 })),
      JSON.stringify(chat({ content: "ef" }, { id: "chatcmpl-2" })),
      JSON.stringify(finish),
      JSON.stringify(usage),
      "[DONE]",
    ]);
  });

  it("joins nothing that carries log probabilities, a finish reason or two text fields", async () => {
    const withLogprobs = {
      ...chat({}),
      choices: [{ index: 0, delta: { content: "a" }, logprobs: { content: [] } }],
    };
    const body = [
      sse(withLogprobs),
      sse(withLogprobs),
      sse(chat({ content: "a", reasoning_content: "b" })),
      sse(chat({ content: "a", reasoning_content: "b" })),
    ].join("");
    const events = await coalesce("openai-chat", [encoder.encode(body)]);
    expect(events).toHaveLength(4);
  });

  it("lets a lone piece through on the next turn, without waiting for more input", async () => {
    const transform = coalesceEventStream("openai-chat");
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    // Not awaited: a transform stream takes input only once its output is read.
    const written = writer.write(encoder.encode(sse(chat({ content: "first" }))));
    const first = await reader.read();
    expect(parseEvents(new TextDecoder().decode(first.value))[0].data).toBe(
      JSON.stringify(chat({ content: "first" })),
    );
    await written;
    const closed = writer.close();
    expect((await reader.read()).done).toBe(true);
    await closed;
  });

  it("drops an event cut off before its blank line, as the AI SDK's parser does", async () => {
    const body = `${sse(chat({ content: "kept" }))}data: ${JSON.stringify(chat({ content: "cut" }))}\n`;
    const events = await coalesce("openai-chat", [encoder.encode(body)]);
    expect(events.map((event) => JSON.parse(event.data).choices[0].delta.content)).toEqual([
      "kept",
    ]);
  });

  it("survives its reader going away while a join waits for its turn", async () => {
    const transform = coalesceEventStream("openai-chat");
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    const reading = reader.read();
    // The piece is taken in and its join scheduled for the next turn of the event loop…
    await writer.write(encoder.encode(sse(chat({ content: "a" }))));
    // …and the reader goes away before that turn comes.
    await reader.cancel(new Error("run cancelled"));
    expect((await reading).done).toBe(true);
    await nextTurn();
    await nextTurn();
    await expect(writer.closed).rejects.toThrow("run cancelled");
  });

  it("joins pieces written as the provider writes them, escapes and spacing included", async () => {
    // A Python server's spacing, escaped slashes and non-ASCII, a surrogate pair cut in two:
    // later pieces join by their raw text, which must still mean the same characters.
    const piece = (content: string) =>
      `data: {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {"content": "${content}"}, "finish_reason": null}]}\n\n`;
    const body = [
      piece("caf\\u00e9 "),
      piece('a\\/b \\"q\\" '),
      piece("\\ud83d"),
      piece("\\ude42\\n"),
      piece("\\\\end"),
    ].join("");
    const events = await coalesce("openai-chat", [encoder.encode(body)]);
    expect(events).toHaveLength(1);
    const parsed = JSON.parse(events[0].data);
    expect(parsed.choices[0].delta.content).toBe('café a/b "q" 🙂\n\\end');
    expect(parsed).toMatchObject({ id: "c1", model: "m", choices: [{ finish_reason: null }] });
  });

  it("never joins a piece that only looks like the last one but is not valid JSON", async () => {
    const valid = sse(chat({ content: "ok" }));
    const template = JSON.stringify(chat({ content: "BODY" }));
    const broken = ['a"b', "tab\there", "bad \\x escape", "short \\u12"].map(
      (body) => `data: ${template.replace("BODY", body)}\n\n`,
    );
    const body = [valid, broken[0], valid, broken[1], valid, broken[2], valid, broken[3], valid];
    const events = await coalesce("openai-chat", [encoder.encode(body.join(""))]);
    // Each broken piece passes through untouched, in its place, and ends the join before it.
    expect(events.map((event) => event.data)).toEqual(
      body.map((frame) => parseEvents(frame)[0].data),
    );
  });

  it("joins a piece whose text key appears twice by what it parses to", async () => {
    // JSON.parse keeps the last of two equal keys; the raw text cannot say which one counts, so
    // such a piece joins around its own serialisation, with the text a parser would see.
    const twice = (first: string, last: string) =>
      `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${first}","content":"${last}"}}]}\n\n`;
    const body = [twice("x", "a"), twice("y", "b"), sse(chat({ content: "c" }, { id: "c1" }))];
    const events = await coalesce("openai-chat", [encoder.encode(body.join(""))]);
    expect(events.map((event) => JSON.parse(event.data).choices[0].delta.content)).toEqual(["abc"]);
    // Equal texts under both keys: a piece differing only in the first must still join as "a".
    const same = await coalesce("openai-chat", [encoder.encode(twice("a", "a") + twice("q", "a"))]);
    expect(same.map((event) => JSON.parse(event.data).choices[0].delta.content)).toEqual(["aa"]);
  });

  it("caps a join at 64 KiB so a long backlog becomes several bounded events", async () => {
    const piece = "x".repeat(1_000);
    const body = Array.from({ length: 200 }, () => sse(chat({ content: piece }))).join("");
    const events = await coalesce("openai-chat", [encoder.encode(body)]);
    const texts = events.map((event) => JSON.parse(event.data).choices[0].delta.content as string);
    expect(texts.join("")).toBe(piece.repeat(200));
    expect(events).toHaveLength(4);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(64 * 1024);
  });
});

describe("coalesceEventStream (openai-responses)", () => {
  const textDelta = (delta: string, extra: Record<string, unknown> = {}) => ({
    type: "response.output_text.delta",
    sequence_number: 1,
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    delta,
    logprobs: [],
    ...extra,
  });

  it("joins text, reasoning-summary and argument deltas of the same item", async () => {
    const argumentDelta = (delta: string) => ({
      type: "response.function_call_arguments.delta",
      sequence_number: 2,
      item_id: "fc_1",
      output_index: 1,
      delta,
    });
    const body = [
      sse(textDelta("Hel"), "response.output_text.delta"),
      sse(textDelta("lo"), "response.output_text.delta"),
      sse(textDelta("!", { content_index: 1 }), "response.output_text.delta"),
      sse(argumentDelta('{"pa')),
      sse(argumentDelta('th":"a"}')),
      sse(textDelta("x", { logprobs: [{ token: "x", logprob: 0, top_logprobs: [] }] })),
      sse(textDelta("y", { logprobs: [{ token: "y", logprob: 0, top_logprobs: [] }] })),
    ].join("");
    const events = await coalesce("openai-responses", [encoder.encode(body)]);
    expect(events.map((event) => [event.event, JSON.parse(event.data).delta])).toEqual([
      ["response.output_text.delta", "Hello"],
      ["response.output_text.delta", "!"],
      [undefined, '{"path":"a"}'],
      [undefined, "x"],
      [undefined, "y"],
    ]);
  });
});

describe("coalesceEventStream (anthropic)", () => {
  const blockDelta = (index: number, delta: Record<string, unknown>) =>
    sse({ type: "content_block_delta", index, delta }, "content_block_delta");

  it("joins deltas of one block and kind, never across blocks, kinds or signatures", async () => {
    const body = [
      blockDelta(0, { type: "thinking_delta", thinking: "a" }),
      blockDelta(0, { type: "thinking_delta", thinking: "b" }),
      blockDelta(0, { type: "signature_delta", signature: "s" }),
      blockDelta(0, { type: "signature_delta", signature: "t" }),
      sse({ type: "content_block_stop", index: 0 }, "content_block_stop"),
      blockDelta(1, { type: "text_delta", text: "Hi " }),
      blockDelta(1, { type: "text_delta", text: "there" }),
      blockDelta(2, { type: "input_json_delta", partial_json: '{"a"' }),
      blockDelta(2, { type: "input_json_delta", partial_json: ":1}" }),
      sse({ type: "ping" }, "ping"),
    ].join("");
    const events = await coalesce("anthropic", [encoder.encode(body)]);
    expect(events.map((event) => [event.event, JSON.parse(event.data)])).toEqual([
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "thinking_delta", thinking: "ab" },
        },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "signature_delta", signature: "s" },
        },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "signature_delta", signature: "t" },
        },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi there" } },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 2,
          delta: { type: "input_json_delta", partial_json: '{"a":1}' },
        },
      ],
      ["ping", { type: "ping" }],
    ]);
  });
});

/**
 * What a stream means once joins are undone: each event's kind (what it may be joined with) and
 * its text, with consecutive texts of the same kind concatenated. Coalescing must not change it.
 */
function meaning(events: EventSourceMessage[]): [string, string][] {
  const result: [string, string][] = [];
  for (const event of events) {
    let kind = `raw:${event.event ?? ""}:${event.data}`;
    let text = "";
    if (event.data.startsWith("{")) {
      const value = JSON.parse(event.data);
      const delta = value.choices?.[0]?.delta;
      const field = ["content", "reasoning_content"].find((name) => delta?.[name]);
      if (field && Object.keys(delta).length === 1 && !value.usage) {
        kind = `${value.id}:${field}`;
        text = delta[field];
      }
    }
    const last = result.at(-1);
    if (last && last[0] === kind && text !== "") last[1] += text;
    else result.push([kind, text]);
  }
  return result;
}

describe("coalesceEventStream, property", () => {
  const piece = fc.oneof(
    fc.record({
      kind: fc.constantFrom("content", "reasoning_content"),
      id: fc.constantFrom("a", "b"),
      text: fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
    }),
    fc.constant({ kind: "done" as const, id: "", text: "" }),
    fc.record({ kind: fc.constant("usage" as const), id: fc.constant("a"), text: fc.constant("") }),
  );

  it("keeps every piece's text, kind and order however the bytes are cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (pieces, cuts) => {
          const body = pieces
            .map((item) => {
              if (item.kind === "done") return sse("[DONE]");
              if (item.kind === "usage")
                return sse({ ...chat({}, { id: item.id }), usage: { completion_tokens: 1 } });
              return sse(chat({ [item.kind]: item.text }, { id: item.id }));
            })
            .join("");
          const bytes = encoder.encode(body);
          const positions = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort(
            (left, right) => left - right,
          );
          const chunks: Uint8Array[] = [];
          let start = 0;
          for (const position of [...positions, bytes.length]) {
            chunks.push(bytes.slice(start, position));
            start = position;
          }
          const events = await coalesce("openai-chat", chunks);
          const original = parseEvents(body);
          expect(meaning(events)).toEqual(meaning(original));
          expect(events.length).toBeLessThanOrEqual(original.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("coalesceEventStream with a text tap", () => {
  const toolStart = chat({
    tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "f", arguments: "" } }],
  });
  const finish = { ...chat({}), choices: [{ index: 0, delta: {}, finish_reason: "stop" }] };
  const usage = { ...chat({}), choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } };

  it("hands over each read's text in wire order, past quiet pieces, until a tool call", async () => {
    const sink = recordingSink();
    const reads = [
      sse(chat({ role: "assistant", content: "" })) +
        sse(chat({ reasoning_content: "plan " })) +
        sse(chat({ reasoning_content: "it" })) +
        sse(chat({ content: "Caf\u00e9 " })),
      sse(chat({ content: "日本 " })) + sse(chat({ content: "🙂" })),
      sse(toolStart) + sse(chat({ content: "after the call" })),
      sse(finish) + sse(usage) + sse("[DONE]"),
    ];
    const events = await coalesce(
      "openai-chat",
      reads.map((read) => encoder.encode(read)),
      sink,
    );
    expect(sink.received).toEqual([
      ["reasoning", "plan it"],
      ["text", "Café "],
      ["text", "日本 🙂"],
    ]);
    // The SDK's copy is the same stream, joined: nothing is lost or moved.
    expect(meaning(events)).toEqual(meaning(parseEvents(reads.join(""))));
  });

  it("stops at a piece it does not recognise, and never hands over a tool call's arguments", async () => {
    const sink = recordingSink();
    const body = [
      sse(chat({ content: "before " })),
      sse(chat({ content: "x" }, { x_vendor: 1 })),
      sse(chat({ content: "after" })),
    ].join("");
    await coalesce("openai-chat", [encoder.encode(body)], sink);
    expect(sink.received).toEqual([["text", "before "]]);

    const anthropicSink = recordingSink();
    const blockDelta = (index: number, delta: Record<string, unknown>) =>
      sse({ type: "content_block_delta", index, delta }, "content_block_delta");
    await coalesce(
      "anthropic",
      [
        encoder.encode(
          [
            sse({ type: "message_start", message: { id: "m" } }, "message_start"),
            sse(
              { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
              "content_block_start",
            ),
            sse({ type: "ping" }, "ping"),
            blockDelta(0, { type: "text_delta", text: "Hi" }),
            sse({ type: "content_block_stop", index: 0 }, "content_block_stop"),
            sse(
              {
                type: "content_block_start",
                index: 1,
                content_block: { type: "tool_use", id: "t", name: "f", input: {} },
              },
              "content_block_start",
            ),
            blockDelta(1, { type: "input_json_delta", partial_json: "{}" }),
            blockDelta(2, { type: "text_delta", text: "later" }),
          ].join(""),
        ),
      ],
      anthropicSink,
    );
    expect(anthropicSink.received).toEqual([["text", "Hi"]]);
  });

  it("holds the SDK's copy of tapped text to join more, but never a piece after early text", async () => {
    const sink = recordingSink();
    const transform = coalesceEventStream("openai-chat", sink);
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    const decoder = new TextDecoder();
    const startedAt = performance.now();
    const firstRead = reader.read();
    await writer.write(encoder.encode(sse(chat({ content: "a" }))));
    // The person has it at once…
    expect(sink.received).toEqual([["text", "a"]]);
    await nextTurn();
    await writer.write(encoder.encode(sse(chat({ content: "b" }))));
    // …the SDK gets both, joined, once the hold is over.
    const first = await firstRead;
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(sdkTextHoldMs - 5);
    expect(meaning(parseEvents(decoder.decode(first.value)))).toEqual([
      ["chatcmpl-1:content", "ab"],
    ]);

    // After a tool call the text is not tapped, so the SDK's copy goes on the next turn.
    const secondRead = reader.read();
    await writer.write(encoder.encode(sse(toolStart)));
    const second = await secondRead;
    expect(parseEvents(decoder.decode(second.value))).toHaveLength(1);
    const thirdRead = reader.read();
    const lateStart = performance.now();
    await writer.write(encoder.encode(sse(chat({ content: "c" }))));
    const third = await thirdRead;
    expect(performance.now() - lateStart).toBeLessThan(sdkTextHoldMs / 2);
    expect(meaning(parseEvents(decoder.decode(third.value)))).toEqual([
      ["chatcmpl-1:content", "c"],
    ]);
    expect(sink.received).toEqual([
      ["text", "a"],
      ["text", "b"],
    ]);
    const closed = writer.close();
    expect((await reader.read()).done).toBe(true);
    await closed;
  });

  it("behaves as untapped once the receiver turns it off, and outlives a receiver that throws", async () => {
    let active = true;
    const received: string[] = [];
    const sink: ResponseTextSink = {
      get active() {
        return active;
      },
      text(_kind, text) {
        received.push(text);
        throw new Error("the receiver broke");
      },
    };
    const transform = coalesceEventStream("openai-chat", sink);
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    const decoder = new TextDecoder();
    const firstRead = reader.read();
    await writer.write(encoder.encode(sse(chat({ content: "a" }))));
    expect(received).toEqual(["a"]);
    active = false;
    await writer.write(encoder.encode(sse(chat({ content: "b" }))));
    const startedAt = performance.now();
    const first = await firstRead;
    // No longer held: the join leaves on the next turn, and "b" was never handed over.
    expect(performance.now() - startedAt).toBeLessThan(sdkTextHoldMs / 2);
    expect(meaning(parseEvents(decoder.decode(first.value)))).toEqual([
      ["chatcmpl-1:content", "ab"],
    ]);
    expect(received).toEqual(["a"]);
    const closed = writer.close();
    expect((await reader.read()).done).toBe(true);
    await closed;
  });
});
