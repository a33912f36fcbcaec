import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type LanguageModel, streamText, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestJsonServer, type TestJsonServer } from "@/lib/models/test-json-server";
import {
  coalescingFetch,
  type ProviderStreamFormat,
  type StreamTextTap,
} from "./coalesce-event-stream";
import { nodeHttpFetch } from "./node-http-fetch";

/*
 * The coalescer rewrites a provider's event stream before the AI SDK parses it. These tests run
 * the real AI SDK providers (their zod chunk schemas and stream state machines) over a realistic
 * answer twice, once read plainly and once through `coalescingFetch`, and require the same
 * result, while the coalesced run sees far fewer pieces. The coalesced run goes over each
 * transport the agent may be given: Node's fetch (the joiner then reads a web stream) and
 * `nodeHttpFetch` (it reads the socket's chunks directly), while the plain reference stays on fetch.
 */

// What the model "says": multi-byte characters (2-, 3- and 4-byte UTF-8) so that the network
// reads, and the joins, fall inside and around them.
const reasoning =
  "The user wants a page. I will write app/page.tsx with a heading — « Crème brûlée » — and " +
  "a greeting in 日本語 with an emoji 🎉, then call write_file once.";
const answer =
  "Voilà: I wrote the page. It shows « Café du Monde » with crème brûlée, naïve façades, " +
  "日本の抹茶 and ramen 🍜 side by side, and a 🎉 when it loads. The heading uses the " +
  "Ünïcödé test string so that multi-byte text survives every join; the rest of the file is " +
  "plain TSX. Next, I call write_file with the full content — nothing else changes. ✅ Done, " +
  "enjoy the page and tell me if the 日本 part should be translated as well. 👍";
const toolInput = {
  path: "app/page.tsx",
  content: 'export default function Page() {\n  return <h1 title="日本">Crème brûlée 🎉</h1>;\n}\n',
};
const toolArguments = JSON.stringify(toolInput);
const usage = { inputTokens: 321, outputTokens: 654 };

const reasoningPieces = split(reasoning, 60);
const answerPieces = split(answer, 200);
const argumentPieces = split(toolArguments, 40);

const tools = {
  write_file: tool({
    description: "Writes a file of the app.",
    inputSchema: z.object({ path: z.string(), content: z.string() }),
  }),
};

/** Splits `text` into `count` pieces of about equal length, never inside a code point. */
function split(text: string, count: number): string[] {
  const characters = Array.from(text);
  if (characters.length < count) throw new Error("text too short to split that finely");
  return Array.from({ length: count }, (_, index) =>
    characters
      .slice(
        Math.floor((index * characters.length) / count),
        Math.floor(((index + 1) * characters.length) / count),
      )
      .join(""),
  );
}

/** One SSE event, as the providers write it. */
function sse(data: unknown, event?: string): string {
  const eventLine = event === undefined ? "" : `event: ${event}\n`;
  return `${eventLine}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/**
 * The whole SSE body of one streamed answer in `format`: reasoning, text, one tool call, finish
 * and usage, each text split into many small deltas as real servers send them. `middle` is raw
 * SSE inserted halfway through the answer's text deltas (the ordering tests use it).
 */
function streamBody(format: ProviderStreamFormat, middle = ""): string {
  const half = answerPieces.length / 2;
  const textEvents = (event: (piece: string) => string) =>
    answerPieces.slice(0, half).map(event).join("") +
    middle +
    answerPieces.slice(half).map(event).join("");

  switch (format) {
    case "openai-chat": {
      // With `stream_options.include_usage`, every chunk carries `usage: null` and a last chunk
      // without choices carries the usage.
      const chunk = (delta: object, finishReason: string | null = null) =>
        sse({
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          created: 1_700_000_000,
          model: "test-model",
          system_fingerprint: "fp_1",
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
          usage: null,
        });
      return [
        chunk({ role: "assistant", content: "" }),
        ...reasoningPieces.map((piece) => chunk({ reasoning_content: piece })),
        textEvents((piece) => chunk({ content: piece })),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "call_1",
              type: "function",
              function: { name: "write_file", arguments: "" },
            },
          ],
        }),
        ...argumentPieces.map((piece) =>
          chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }),
        ),
        chunk({}, "tool_calls"),
        sse({
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          created: 1_700_000_000,
          model: "test-model",
          choices: [],
          usage: {
            prompt_tokens: usage.inputTokens,
            completion_tokens: usage.outputTokens,
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        }),
        sse("[DONE]"),
      ].join("");
    }

    case "openai-responses": {
      // The Responses API names every event twice: in `event:` and in the data's `type`.
      let sequence = 0;
      const event = (type: string, fields: object) =>
        sse({ type, sequence_number: sequence++, ...fields }, type);
      const reasoningItem = { type: "reasoning", id: "rs_1", summary: [] };
      const messageItem = { type: "message", id: "msg_1", role: "assistant", content: [] };
      const callItem = { type: "function_call", id: "fc_1", call_id: "call_1", name: "write_file" };
      const response = { id: "resp_1", object: "response", created_at: 1_700_000_000 };
      return [
        event("response.created", {
          response: { ...response, status: "in_progress", model: "test-model", output: [] },
        }),
        event("response.in_progress", { response: { ...response, status: "in_progress" } }),
        event("response.output_item.added", { output_index: 0, item: reasoningItem }),
        event("response.reasoning_summary_part.added", {
          item_id: "rs_1",
          output_index: 0,
          summary_index: 0,
          part: { type: "summary_text", text: "" },
        }),
        ...reasoningPieces.map((delta) =>
          event("response.reasoning_summary_text.delta", {
            item_id: "rs_1",
            output_index: 0,
            summary_index: 0,
            delta,
            obfuscation: "x",
          }),
        ),
        event("response.reasoning_summary_text.done", {
          item_id: "rs_1",
          output_index: 0,
          summary_index: 0,
          text: reasoning,
        }),
        event("response.reasoning_summary_part.done", {
          item_id: "rs_1",
          output_index: 0,
          summary_index: 0,
          part: { type: "summary_text", text: reasoning },
        }),
        event("response.output_item.done", {
          output_index: 0,
          item: { ...reasoningItem, summary: [{ type: "summary_text", text: reasoning }] },
        }),
        event("response.output_item.added", {
          output_index: 1,
          item: { ...messageItem, status: "in_progress" },
        }),
        event("response.content_part.added", {
          item_id: "msg_1",
          output_index: 1,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        }),
        textEvents((delta) =>
          event("response.output_text.delta", {
            item_id: "msg_1",
            output_index: 1,
            content_index: 0,
            delta,
            logprobs: [],
          }),
        ),
        event("response.output_text.done", {
          item_id: "msg_1",
          output_index: 1,
          content_index: 0,
          text: answer,
        }),
        event("response.output_item.done", {
          output_index: 1,
          item: {
            ...messageItem,
            status: "completed",
            content: [{ type: "output_text", text: answer, annotations: [] }],
          },
        }),
        event("response.output_item.added", {
          output_index: 2,
          item: { ...callItem, arguments: "", status: "in_progress" },
        }),
        ...argumentPieces.map((delta) =>
          event("response.function_call_arguments.delta", {
            item_id: "fc_1",
            output_index: 2,
            delta,
          }),
        ),
        event("response.function_call_arguments.done", {
          item_id: "fc_1",
          output_index: 2,
          arguments: toolArguments,
        }),
        event("response.output_item.done", {
          output_index: 2,
          item: { ...callItem, arguments: toolArguments, status: "completed" },
        }),
        event("response.completed", {
          response: {
            ...response,
            status: "completed",
            model: "test-model",
            incomplete_details: null,
            usage: {
              input_tokens: usage.inputTokens,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: usage.outputTokens,
              output_tokens_details: { reasoning_tokens: 100 },
              total_tokens: usage.inputTokens + usage.outputTokens,
            },
          },
        }),
      ].join("");
    }

    case "anthropic": {
      // Anthropic names each event in an `event:` line too, and pings now and then.
      const event = (data: { type: string; [field: string]: unknown }) => sse(data, data.type);
      const delta = (index: number, value: object) =>
        event({ type: "content_block_delta", index, delta: value });
      return [
        event({
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "test-model",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: usage.inputTokens,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              output_tokens: 1,
            },
          },
        }),
        event({ type: "ping" }),
        event({
          type: "content_block_start",
          index: 0,
          content_block: { type: "thinking", thinking: "", signature: "" },
        }),
        ...reasoningPieces.map((thinking) => delta(0, { type: "thinking_delta", thinking })),
        delta(0, { type: "signature_delta", signature: "c2lnbmF0dXJl" }),
        event({ type: "content_block_stop", index: 0 }),
        event({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }),
        textEvents((text) => delta(1, { type: "text_delta", text })),
        event({ type: "content_block_stop", index: 1 }),
        event({
          type: "content_block_start",
          index: 2,
          content_block: { type: "tool_use", id: "toolu_1", name: "write_file", input: {} },
        }),
        ...argumentPieces.map((partial_json) =>
          delta(2, { type: "input_json_delta", partial_json }),
        ),
        event({ type: "content_block_stop", index: 2 }),
        event({
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: usage.outputTokens },
        }),
        event({ type: "message_stop" }),
      ].join("");
    }
  }
}

let server: TestJsonServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Serves `body` as one event stream. A string is written with a single `end`, so that each
 * network read carries many events; slices go out one by one, a millisecond apart.
 */
async function serveStream(body: string | Uint8Array[]): Promise<TestJsonServer> {
  return startTestJsonServer((request, response) => {
    request.resume();
    request.on("end", async () => {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      if (typeof body === "string") {
        response.end(body);
        return;
      }
      for (const slice of body) {
        response.write(slice);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      response.end();
    });
  });
}

/** The model each format is used with in lib/models/language-model.ts, on the test server. */
function modelFor(
  format: ProviderStreamFormat,
  origin: string,
  fetch: typeof globalThis.fetch,
): LanguageModel {
  const baseURL = `${origin}/v1`;
  switch (format) {
    case "openai-chat":
      return createOpenAICompatible({
        name: "compatible",
        baseURL,
        includeUsage: true,
        fetch,
      }).chatModel("test-model");
    case "openai-responses":
      return createOpenAI({ apiKey: "k", baseURL, fetch })("test-model");
    case "anthropic":
      return createAnthropic({ apiKey: "k", baseURL, fetch })("test-model");
  }
}

const requestPaths: Record<ProviderStreamFormat, string> = {
  "openai-chat": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
  anthropic: "/v1/messages",
};

interface StreamOutcome {
  text: string;
  reasoning: string;
  /** Concatenated `tool-input-delta`s: the arguments as streamed. */
  streamedToolInput: string;
  toolCalls: { toolName: string; input: unknown }[];
  finishReason: string | undefined;
  usage: { inputTokens: number | undefined; outputTokens: number | undefined } | undefined;
  /** Every stream part in order, with consecutive deltas of one kind merged into one entry. */
  timeline: string[];
  counts: { textDeltas: number; reasoningDeltas: number; toolInputDeltas: number };
}

/** Runs `streamText` against the server and collects what an agent would read from it. */
async function collect(
  format: ProviderStreamFormat,
  fetch: typeof globalThis.fetch,
): Promise<StreamOutcome> {
  if (!server) throw new Error("no server");
  const result = streamText({
    model: modelFor(format, server.origin, fetch),
    prompt: "Make me a page.",
    tools,
    maxOutputTokens: 1000,
    // Errors inside the stream are parts of it, collected below; don't log them.
    onError: () => undefined,
  });
  const outcome: StreamOutcome = {
    text: "",
    reasoning: "",
    streamedToolInput: "",
    toolCalls: [],
    finishReason: undefined,
    usage: undefined,
    timeline: [],
    counts: { textDeltas: 0, reasoningDeltas: 0, toolInputDeltas: 0 },
  };
  const record = (kind: string, content = "") => {
    const last = outcome.timeline.length - 1;
    const merges = kind.endsWith("-delta") && outcome.timeline[last]?.startsWith(`${kind}: `);
    if (merges) outcome.timeline[last] += content;
    else outcome.timeline.push(content === "" ? kind : `${kind}: ${content}`);
  };
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-delta":
        outcome.text += part.text;
        outcome.counts.textDeltas++;
        record(part.type, part.text);
        break;
      case "reasoning-delta":
        outcome.reasoning += part.text;
        outcome.counts.reasoningDeltas++;
        // Anthropic's signature arrives as an empty reasoning delta: same in both runs.
        record(part.type, part.text);
        break;
      case "tool-input-delta":
        outcome.streamedToolInput += part.delta;
        outcome.counts.toolInputDeltas++;
        record(part.type, part.delta);
        break;
      case "tool-call":
        outcome.toolCalls.push({ toolName: part.toolName, input: part.input });
        record(part.type, part.toolName);
        break;
      case "tool-input-start":
        record(part.type, part.toolName);
        break;
      case "source":
        record(part.type, part.sourceType === "url" ? part.url : part.title);
        break;
      case "error":
        record(part.type, errorMessage(part.error));
        break;
      case "finish":
        outcome.finishReason = part.finishReason;
        outcome.usage = {
          inputTokens: part.totalUsage.inputTokens,
          outputTokens: part.totalUsage.outputTokens,
        };
        record(part.type, part.finishReason);
        break;
      default:
        record(part.type);
    }
  }
  return outcome;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) {
    return String(error.message);
  }
  return JSON.stringify(error);
}

/** The same stream read plainly and through the coalescer. */
async function plainAndCoalesced(
  format: ProviderStreamFormat,
  transport: Transport,
  body: string | Uint8Array[],
) {
  server = await serveStream(body);
  const plain = await collect(format, globalThis.fetch);
  const coalesced = await collect(format, coalescingFetch(format, transports[transport]));
  expect(server.requests.map((request) => request.path)).toEqual([
    requestPaths[format],
    requestPaths[format],
  ]);
  return { plain, coalesced };
}

const formats: ProviderStreamFormat[] = ["openai-chat", "openai-responses", "anthropic"];
const transports = { fetch: globalThis.fetch, "node:http": nodeHttpFetch };
type Transport = keyof typeof transports;
/** Every format over every transport, as `[format, transport]`. */
const cases = formats.flatMap((format) =>
  (Object.keys(transports) as Transport[]).map((transport) => [format, transport] as const),
);

describe.each(cases)("coalescingFetch with the real %s provider, over %s", (format, transport) => {
  it("gives the same answer as the plain stream, from far fewer pieces", async () => {
    const { plain, coalesced } = await plainAndCoalesced(format, transport, streamBody(format));

    // The plain run is the reference, checked against what was sent so that it can fail too.
    expect(plain.text).toBe(answer);
    expect(plain.reasoning).toBe(reasoning);
    expect(plain.streamedToolInput).toBe(toolArguments);
    expect(plain.toolCalls).toEqual([{ toolName: "write_file", input: toolInput }]);
    expect(plain.finishReason).toBe("tool-calls");
    expect(plain.usage).toEqual(usage);
    expect(plain.counts.textDeltas).toBe(answerPieces.length);

    // The coalesced run reads the same thing, in the same order...
    expect(coalesced.text).toBe(answer);
    expect(coalesced.reasoning).toBe(reasoning);
    expect(coalesced.streamedToolInput).toBe(toolArguments);
    expect(coalesced.toolCalls).toEqual(plain.toolCalls);
    expect(coalesced.finishReason).toBe(plain.finishReason);
    expect(coalesced.usage).toEqual(plain.usage);
    expect(coalesced.timeline).toEqual(plain.timeline);

    // ...from a handful of pieces: the whole body arrived in a few reads.
    expect(coalesced.counts.textDeltas).toBeLessThan(10);
    expect(coalesced.counts.reasoningDeltas).toBeLessThan(plain.counts.reasoningDeltas / 5);
    // Chat Completions tool-call arguments are deliberately not joined (see
    // coalesce-event-stream.ts); the other formats' are.
    expect(coalesced.counts.toolInputDeltas === plain.counts.toolInputDeltas).toBe(
      format === "openai-chat",
    );
    expect(coalesced.counts.toolInputDeltas).toBeLessThanOrEqual(plain.counts.toolInputDeltas);
  });
});

/*
 * Events the coalescer must not join — they end a join and pass through where they were. Each
 * carries text of its own or turns into a stream part, so the order shows in what the SDK reads.
 */
const middles: Record<ProviderStreamFormat, { sse: string; timeline: string[] }> = {
  "openai-chat": {
    sse:
      // Servers with continuous usage stats put `usage` on a text chunk.
      sse({
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: "test-model",
        choices: [{ index: 0, delta: { content: "[with usage]" }, finish_reason: null }],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      }) +
      // A field the coalescer does not know (here on the delta).
      sse({
        id: "chatcmpl-1",
        model: "test-model",
        choices: [{ index: 0, delta: { content: "[unknown field]", refusal: null } }],
      }) +
      sse({ error: { message: "upstream hiccup", type: "server_error" } }),
    timeline: ["text-delta: [with usage][unknown field]", "error: upstream hiccup"],
  },
  "openai-responses": {
    sse:
      // Per-token log probabilities would no longer match joined text.
      sse(
        {
          type: "response.output_text.delta",
          sequence_number: 1000,
          item_id: "msg_1",
          output_index: 1,
          content_index: 0,
          delta: "[logprobs]",
          logprobs: [{ token: "[logprobs]", logprob: -0.1, top_logprobs: [] }],
        },
        "response.output_text.delta",
      ) +
      sse(
        {
          type: "response.output_text.annotation.added",
          sequence_number: 1001,
          item_id: "msg_1",
          output_index: 1,
          content_index: 0,
          annotation_index: 0,
          annotation: {
            type: "url_citation",
            start_index: 0,
            end_index: 5,
            url: "https://example.com/cafe",
            title: "Café",
          },
        },
        "response.output_text.annotation.added",
      ) +
      sse(
        { type: "error", sequence_number: 1002, message: "upstream hiccup", code: "server_error" },
        "error",
      ),
    timeline: [
      "text-delta: [logprobs]",
      "source: https://example.com/cafe",
      "error: upstream hiccup",
    ],
  },
  anthropic: {
    sse:
      sse({ type: "ping" }, "ping") +
      // A field the coalescer does not know (the SDK's schema drops it).
      sse(
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "text_delta", text: "[unknown field]" },
          extra: true,
        },
        "content_block_delta",
      ) +
      sse(
        {
          type: "content_block_delta",
          index: 1,
          delta: {
            type: "citations_delta",
            citation: {
              type: "web_search_result_location",
              cited_text: "crème brûlée",
              url: "https://example.com/cafe",
              title: "Café",
              encrypted_index: "e1",
            },
          },
        },
        "content_block_delta",
      ) +
      sse({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, "error"),
    timeline: [
      "text-delta: [unknown field]",
      "source: https://example.com/cafe",
      "error: Overloaded",
    ],
  },
};

describe.each(cases)(
  "coalescingFetch keeps the order of %s events it does not join, over %s",
  (format, transport) => {
    it("passes them through between the joined text before and after them", async () => {
      const middle = middles[format];
      const { plain, coalesced } = await plainAndCoalesced(
        format,
        transport,
        streamBody(format, middle.sse),
      );

      const half = answerPieces.length / 2;
      const before = answerPieces.slice(0, half).join("");
      const after = answerPieces.slice(half).join("");
      const insertedText = middle.timeline[0].replace("text-delta: ", "");
      expect(plain.text).toBe(before + insertedText + after);
      // In the timeline the passed-through parts split the answer's text where they were sent.
      expect(
        containsInOrder(plain.timeline, [
          `text-delta: ${before}${insertedText}`,
          ...middle.timeline.slice(1),
          `text-delta: ${after}`,
        ]),
      ).toBe(true);

      expect(coalesced.text).toBe(plain.text);
      expect(coalesced.timeline).toEqual(plain.timeline);
      expect(coalesced.toolCalls).toEqual(plain.toolCalls);
      expect(coalesced.finishReason).toBe(plain.finishReason);
      expect(coalesced.usage).toEqual(plain.usage);
      expect(coalesced.counts.textDeltas).toBeLessThan(plain.counts.textDeltas / 5);
    });
  },
);

/** Whether `expected` occurs in `timeline` as consecutive entries. */
function containsInOrder(timeline: string[], expected: string[]): boolean {
  return timeline.some((_, start) =>
    expected.every((entry, offset) => timeline[start + offset] === entry),
  );
}

describe.each(cases)(
  "coalescingFetch over a slowly arriving %s stream, over %s",
  (format, transport) => {
    it("gives the same answer when the body comes in slices cut inside characters", async () => {
      const slices = cutInsideCharacters(streamBody(format));
      expect(slices.length).toBeGreaterThan(20);
      const { plain, coalesced } = await plainAndCoalesced(format, transport, slices);

      expect(plain.text).toBe(answer);
      expect(plain.counts.textDeltas).toBe(answerPieces.length);
      expect(coalesced.text).toBe(answer);
      expect(coalesced.reasoning).toBe(reasoning);
      expect(coalesced.streamedToolInput).toBe(toolArguments);
      expect(coalesced.toolCalls).toEqual([{ toolName: "write_file", input: toolInput }]);
      expect(coalesced.usage).toEqual(usage);
      expect(coalesced.timeline).toEqual(plain.timeline);
      // Joins never reach past what has arrived, so there are more pieces here than above.
      expect(coalesced.counts.textDeltas).toBeLessThanOrEqual(plain.counts.textDeltas);
    });
  },
);

/**
 * `body` as UTF-8, cut after the first byte of every multi-byte character: each slice ends in
 * the middle of a character, and most in the middle of an event.
 */
function cutInsideCharacters(body: string): Uint8Array[] {
  const bytes = Buffer.from(body);
  const slices: Uint8Array[] = [];
  let start = 0;
  for (let index = 0; index < bytes.length; index++) {
    // 0b11xxxxxx leads a multi-byte character.
    if ((bytes[index] & 0xc0) === 0xc0) {
      slices.push(bytes.subarray(start, index + 1));
      start = index + 1;
    }
  }
  slices.push(bytes.subarray(start));
  return slices;
}

/** A tap that records each response's early text, and the order of its kinds. */
function recordingTap() {
  const responses: { text: string; reasoning: string; kinds: string[] }[] = [];
  const tap: StreamTextTap = {
    open() {
      const response = { text: "", reasoning: "", kinds: [] as string[] };
      responses.push(response);
      return {
        active: true,
        text(kind, text) {
          response[kind] += text;
          if (response.kinds.at(-1) !== kind) response.kinds.push(kind);
        },
      };
    },
  };
  return { tap, responses };
}

/** The same stream read plainly and through a tapped coalescer. */
async function plainAndTapped(
  format: ProviderStreamFormat,
  transport: Transport,
  body: string | Uint8Array[],
) {
  server = await serveStream(body);
  const { tap, responses } = recordingTap();
  const plain = await collect(format, globalThis.fetch);
  const tapped = await collect(format, coalescingFetch(format, transports[transport], tap));
  return { plain, tapped, responses };
}

describe.each(cases)(
  "coalescingFetch with a text tap and the real %s provider, over %s",
  (format, transport) => {
    it("hands over the reasoning and the answer as they arrive; the SDK reads the same stream", async () => {
      const { plain, tapped, responses } = await plainAndTapped(
        format,
        transport,
        streamBody(format),
      );
      expect(responses).toHaveLength(1);
      expect(responses[0]).toEqual({ reasoning, text: answer, kinds: ["reasoning", "text"] });
      // Exactly what the SDK reports, so the run can strip its copy character for character.
      expect(tapped.text).toBe(plain.text);
      expect(tapped.reasoning).toBe(plain.reasoning);
      expect(tapped.timeline).toEqual(plain.timeline);
      expect(tapped.toolCalls).toEqual([{ toolName: "write_file", input: toolInput }]);
      expect(tapped.usage).toEqual(usage);
      expect(tapped.counts.textDeltas).toBeLessThan(10);
    });

    it("stops at the first piece that could show as something else", async () => {
      const { plain, tapped, responses } = await plainAndTapped(
        format,
        transport,
        streamBody(format, middles[format].sse),
      );
      const before = answerPieces.slice(0, answerPieces.length / 2).join("");
      expect(responses[0]).toEqual({ reasoning, text: before, kinds: ["reasoning", "text"] });
      expect(plain.text.startsWith(before)).toBe(true);
      expect(tapped.timeline).toEqual(plain.timeline);
    });

    it("hands over the same text when the body comes in slices cut inside characters", async () => {
      const { plain, tapped, responses } = await plainAndTapped(
        format,
        transport,
        cutInsideCharacters(streamBody(format)),
      );
      expect(responses[0]).toEqual({ reasoning, text: answer, kinds: ["reasoning", "text"] });
      expect(tapped.timeline).toEqual(plain.timeline);
    });
  },
);
