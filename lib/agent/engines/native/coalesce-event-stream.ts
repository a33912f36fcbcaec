import { createParser, type EventSourceMessage } from "eventsource-parser";
import { listenToBody } from "./node-http-fetch";

/** The streaming wire formats whose small pieces we know how to join. */
export type ProviderStreamFormat = "openai-chat" | "openai-responses" | "anthropic";

/** The kinds of streamed text the AI SDK reports as `text-delta` and `reasoning-delta`. */
export type StreamTextKind = "text" | "reasoning";

/**
 * Where one model response's text goes the moment it comes off the wire, before the AI SDK has
 * parsed it (see {@link StreamTextTap}).
 */
export interface ResponseTextSink {
  /** Text of the response, in wire order, for as long as the response is early (see the tap). */
  text(kind: StreamTextKind, text: string): void;
  /** False once the receiver stopped trusting early text: the stream then behaves as untapped. */
  readonly active: boolean;
}

/**
 * Takes a response's text straight off the wire.
 *
 * Why: the AI SDK costs ~100–200 µs of CPU per event inside the server (web streams, zod, stream
 * parts). Twenty runs of a fast model send ~9,000 events a second, more than a core can parse that
 * way, so every delta queued behind the backlog before a person saw it. The joiner already reads
 * every piece; with a tap it hands each response's text to the run as it arrives, and gives the SDK
 * the same text joined over {@link sdkTextHoldMs}, since nobody waits on the SDK's copy any more.
 *
 * A response is *early* from its start until the first piece that could become something the
 * person sees other than text (a tool call, an error, anything we do not recognise): text after
 * that is not tapped, so it still reaches the person after that piece, through the SDK as before.
 */
export interface StreamTextTap {
  /** A model response starts streaming; undefined when early text is off for it. */
  open(): ResponseTextSink | undefined;
}

/**
 * Joins a provider's streamed pieces that are already waiting, before the AI SDK parses them.
 *
 * Why: the AI SDK spends ~40–100 µs of CPU on every SSE event (web streams, zod, stream parts),
 * however small. A fast model, or many runs at once, sends more events than one core can parse
 * that way, and every later delta queues behind the backlog. Whatever has already arrived when
 * we get to it — one network read, or several queued reads — is joined: consecutive text,
 * reasoning and tool-argument pieces of the same block become one event with the concatenated
 * string, so the SDK parses a backlog of 500 pieces as one.
 *
 * Nothing waits for more input: joined events leave on the next turn of the event loop
 * (`setImmediate`), so a model that keeps up with us sees its events pass one by one, unchanged
 * but for a re-serialisation. Only events whose every field we understand are joined; anything
 * else (tool-call starts, finish reasons, usage, errors, unknown fields) passes through in order
 * and ends the current join.
 */
export function coalesceEventStream(
  format: ProviderStreamFormat,
  sink?: ResponseTextSink,
): TransformStream<Uint8Array, Uint8Array> {
  let joiner: EventJoiner | undefined;
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      joiner = createEventJoiner(format, sink, (bytes) => controller.enqueue(bytes));
    },
    transform(chunk) {
      joiner?.push(chunk);
    },
    flush() {
      joiner?.end();
    },
  });
}

/** The joiner fed by hand: `push` each network read, then `end`, or `stop` to drop the rest. */
interface EventJoiner {
  push(chunk: Uint8Array): void;
  end(): void;
  stop(): void;
}

/**
 * The joiner behind {@link coalesceEventStream}, handing what it joined to `emit` (which throws
 * once the reader went away).
 */
function createEventJoiner(
  format: ProviderStreamFormat,
  sink: ResponseTextSink | undefined,
  emit: (bytes: Uint8Array) => void,
): EventJoiner {
  const joinRule = joinRules[format];
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let enqueue: ((bytes: Uint8Array) => void) | undefined = emit;
  let pending: PendingEvent | undefined;
  let scheduledFlush: { held: boolean; cancel(): void } | undefined;
  let output = "";
  /** Whether this response is still early: only text and quiet pieces so far. */
  let early = sink !== undefined;
  /** Early text of the current network read, as JSON string bodies, handed to the sink per read. */
  let tapped: { kind: StreamTextKind; bodies: string[] }[] = [];

  const tap = (kind: JoinKind, body: string) => {
    if (!early || kind === "tool-input") return;
    const last = tapped.at(-1);
    if (last?.kind === kind) last.bodies.push(body);
    else tapped.push({ kind, bodies: [body] });
  };
  const releaseTapped = () => {
    if (tapped.length === 0) return;
    const pieces = tapped;
    tapped = [];
    if (!sink?.active) return;
    for (const { kind, bodies } of pieces) {
      try {
        sink.text(kind, JSON.parse(`"${bodies.join("")}"`) as string);
      } catch {
        // The receiver's failure is its own; the SDK's copy of the stream must go on regardless.
      }
    }
  };
  const endEarly = () => {
    releaseTapped();
    early = false;
  };

  const emitPending = () => {
    if (!pending) return;
    const { message, prefix, bodies, suffix } = pending;
    output += serialize(
      message.event,
      message.id,
      bodies.length === 1 ? message.data : prefix + bodies.join("") + suffix,
    );
    pending = undefined;
  };
  const send = () => {
    if (output === "" || !enqueue) return;
    const text = output;
    output = "";
    try {
      enqueue(encoder.encode(text));
    } catch {
      // The reader went away (the run was cancelled or timed out) while a join waited for its
      // turn of the event loop: there is nobody left to give it to.
      enqueue = undefined;
    }
  };
  const drain = () => {
    scheduledFlush = undefined;
    emitPending();
    send();
  };
  /**
   * Schedules the pending join's departure: on the next turn of the event loop, or — when its text
   * already reached the person through the tap — after {@link sdkTextHoldMs}, so the SDK parses a
   * few large events instead of every piece.
   */
  const schedule = () => {
    if (!pending) return;
    const held = early && pending.kind !== "tool-input" && sink?.active === true;
    // A turn already scheduled is soon enough either way; a hold is kept only while still wanted.
    if (scheduledFlush && (!scheduledFlush.held || held)) return;
    scheduledFlush?.cancel();
    if (held) {
      const timer = setTimeout(drain, sdkTextHoldMs);
      scheduledFlush = { held, cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(drain);
      scheduledFlush = { held, cancel: () => clearImmediate(immediate) };
    }
  };
  const parser = createParser({
    onEvent(message) {
      if (pending) {
        // The fast path: the same event as the pending one but for its text needs no parsing.
        const body = bodyInTemplate(pending, message);
        if (body !== undefined && pending.size + body.length <= maximumJoinedChars) {
          pending.bodies.push(body);
          pending.size += body.length;
          tap(pending.kind, body);
          return;
        }
      }
      const read = readPiece(joinRule, message, early);
      const candidate = read.candidate;
      // A tool call's arguments are never early text, and what follows them must stay behind them.
      if (candidate && candidate.kind !== "tool-input") tap(candidate.kind, candidate.body);
      else if (early && !read.quiet) endEarly();
      if (
        candidate &&
        pending &&
        pending.key === candidate.key &&
        pending.size + candidate.body.length <= maximumJoinedChars
      ) {
        pending.bodies.push(candidate.body);
        pending.size += candidate.body.length;
        return;
      }
      emitPending();
      if (candidate) {
        pending = {
          message,
          key: candidate.key,
          kind: candidate.kind,
          prefix: candidate.prefix,
          suffix: candidate.suffix,
          bodies: [candidate.body],
          size: candidate.body.length,
        };
      } else {
        output += serialize(message.event, message.id, message.data);
      }
    },
  });

  return {
    push(chunk) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      // The person gets this read's text now, before the SDK has seen any of it.
      releaseTapped();
      // What precedes the last joinable piece can go now; that piece waits one turn of the event
      // loop, in case more of it is already queued behind this chunk (or longer, when tapped).
      send();
      schedule();
    },
    end() {
      scheduledFlush?.cancel();
      // An event cut off without its blank line is dropped, as the AI SDK's own parser drops it.
      parser.feed(decoder.decode());
      releaseTapped();
      drain();
      enqueue = undefined;
    },
    stop() {
      scheduledFlush?.cancel();
      scheduledFlush = undefined;
      enqueue = undefined;
    },
  };
}

/**
 * Wraps a fetch so that a successful event-stream answer is read through
 * {@link coalesceEventStream}; every other answer is returned untouched.
 */
export function coalescingFetch(
  format: ProviderStreamFormat,
  fetch: typeof globalThis.fetch = globalThis.fetch,
  textTap?: StreamTextTap,
): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const contentType = response.headers.get("content-type") ?? "";
    if (!response.ok || !response.body || !contentType.startsWith("text/event-stream")) {
      return response;
    }
    const sink = textTap?.open();
    return new Response(
      readJoined(response, format, sink) ??
        response.body.pipeThrough(coalesceEventStream(format, sink)),
      { status: response.status, statusText: response.statusText, headers: response.headers },
    );
  };
}

/**
 * Bytes of joined events the SDK has not read yet, beyond which the socket is paused. Generous on
 * purpose: the person's text comes off the socket ahead of the SDK (the tap), and pausing the
 * socket because the SDK fell behind under load would hold that text back too.
 */
const joinedHighWaterMarkBytes = 1024 * 1024;

/**
 * The joined stream of a response whose bytes can be had as the socket delivers them (see
 * {@link listenToBody}): each network read goes to the joiner at once, with no web stream and
 * its promises in between; only what the joiner emits becomes chunks of the returned stream.
 * Undefined for a response that must be read through its web stream.
 */
function readJoined(
  response: Response,
  format: ProviderStreamFormat,
  sink: ResponseTextSink | undefined,
): ReadableStream<Uint8Array> | undefined {
  // Set by the stream's start, which runs before the socket can deliver anything.
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let joiner: EventJoiner | undefined;
  const flow = listenToBody(response, {
    data: (chunk) => joiner?.push(chunk),
    end: () => {
      joiner?.end();
      controller?.close();
    },
    error: (error) => {
      joiner?.stop();
      controller?.error(error);
    },
  });
  if (!flow) return undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        joiner = createEventJoiner(format, sink, (bytes) => {
          streamController.enqueue(bytes);
          if ((streamController.desiredSize ?? 0) <= 0) flow.pause();
        });
      },
      pull() {
        flow.resume();
      },
      cancel() {
        joiner?.stop();
        flow.cancel();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: joinedHighWaterMarkBytes }),
  );
}

/** Joined text (as JSON-escaped characters) is capped so one event never grows without bound. */
const maximumJoinedChars = 64 * 1024;

/**
 * How long the SDK's copy of tapped text may wait to be joined with more. Nobody watches that copy
 * (the person got the text from the tap), so the only cost of waiting is that the run's own record
 * of its answer trails the wire by this much; tool calls and everything else never wait.
 */
export const sdkTextHoldMs = 50;

/** What a joinable piece carries: text the person reads, reasoning, or a tool call's arguments. */
type JoinKind = StreamTextKind | "tool-input";

/**
 * A joinable event split around its text: `prefix + "<body>" + suffix` is its data, where body is
 * the text as a JSON string's characters (escaped, without the quotes).
 */
interface JoinCandidate {
  /** Events join only with a pending event of the same key (same block, same kind of text). */
  key: string;
  kind: JoinKind;
  prefix: string;
  body: string;
  suffix: string;
}

interface PendingEvent {
  /** The first piece: its event name, id and (when nothing joined it) data go out unchanged. */
  message: EventSourceMessage;
  key: string;
  kind: JoinKind;
  prefix: string;
  suffix: string;
  /** Each joined piece's body, in order: concatenated they are the joined text's body. */
  bodies: string[];
  /** JSON-escaped characters joined so far. */
  size: number;
}

interface JoinRule {
  /**
   * The join key of an event, the kind and name of the field that holds its text and the text,
   * or undefined when it must pass through as it is.
   */
  classify(
    value: Record<string, unknown>,
  ): { key: string; kind: JoinKind; field: string; text: string } | undefined;
  /**
   * Whether an event that does not join can only become something the person never sees (a
   * block's start or end, usage, a finish reason, a keep-alive). Anything else ends early text.
   */
  quiet(value: Record<string, unknown>): boolean;
}

/**
 * A piece as the joiner sees it: a join candidate, or whether it is quiet (see JoinRule). Quiet is
 * only worked out while `early` asks for it: an untapped stream has no use for it.
 */
function readPiece(
  rule: JoinRule,
  message: EventSourceMessage,
  early: boolean,
): { candidate?: JoinCandidate; quiet: boolean } {
  // Cheap refusals before parsing: the end marker, and anything that is not a JSON object.
  if (message.data.charCodeAt(0) !== 123 /* { */) return { quiet: message.data === "[DONE]" };
  let value: unknown;
  try {
    value = JSON.parse(message.data);
  } catch {
    return { quiet: false };
  }
  if (!isRecord(value)) return { quiet: false };
  const candidate = joinable(rule, message, value);
  return candidate ? { candidate, quiet: false } : { quiet: early && rule.quiet(value) };
}

function joinable(
  rule: JoinRule,
  message: EventSourceMessage,
  value: Record<string, unknown>,
): JoinCandidate | undefined {
  const classified = rule.classify(value);
  if (!classified) return undefined;
  // Where the text is in the data as the provider wrote it, so that later pieces written the same
  // way can be recognised without parsing. A provider that writes something we cannot locate
  // (the field twice, say) still joins, around our own serialisation of the event.
  const split =
    splitAroundText(message.data, classified.field, classified.text) ??
    splitAroundText(JSON.stringify(value), classified.field, classified.text);
  if (!split) return undefined;
  return { key: `${message.event ?? ""}\n${classified.key}`, kind: classified.kind, ...split };
}

const fieldPatterns = new Map<string, RegExp>();

/** Splits `data` around the string value of its one `"field":` key, if that value is `text`. */
function splitAroundText(
  data: string,
  field: string,
  text: string,
): { prefix: string; body: string; suffix: string } | undefined {
  let pattern = fieldPatterns.get(field);
  if (!pattern) {
    pattern = new RegExp(`"${field}"\\s*:\\s*"`, "g");
    fieldPatterns.set(field, pattern);
  }
  pattern.lastIndex = 0;
  const match = pattern.exec(data);
  // Keys are outside strings, where quotes are never escaped, so this finds keys only; a second
  // one (a nested object with the same key) makes the position ambiguous.
  if (!match || pattern.exec(data)) return undefined;
  const start = match.index + match[0].length;
  const end = stringBodyEnd(data, start);
  if (end < 0) return undefined;
  const body = data.slice(start, end);
  if (JSON.parse(`"${body}"`) !== text) return undefined;
  return { prefix: data.slice(0, start), body, suffix: data.slice(end) };
}

/**
 * The body of `message` when it is the pending event but for its text: the same event name,
 * everything around the text identical, and in between a non-empty, valid JSON string body.
 * Such an event parses to the pending one's fields with another text, so it classifies with the
 * same key: it can join without being parsed.
 */
function bodyInTemplate(pending: PendingEvent, message: EventSourceMessage): string | undefined {
  const { data } = message;
  const { prefix, suffix } = pending;
  if (
    message.event !== pending.message.event ||
    data.length <= prefix.length + suffix.length ||
    !data.startsWith(prefix) ||
    !data.endsWith(suffix)
  ) {
    return undefined;
  }
  const end = data.length - suffix.length;
  return stringBodyEnd(data, prefix.length) === end ? data.slice(prefix.length, end) : undefined;
}

/**
 * The index of the quote closing a JSON string whose characters start at `start`, or -1 when
 * they are not valid JSON string characters (a raw control character, an unknown escape).
 */
function stringBodyEnd(data: string, start: number): number {
  for (let index = start; index < data.length; index += 1) {
    const code = data.charCodeAt(index);
    if (code === 34 /* " */) return index;
    if (code < 32) return -1;
    if (code !== 92 /* \ */) continue;
    const escaped = data.charCodeAt(index + 1);
    if (escaped === 117 /* u */) {
      if (!/^[0-9a-fA-F]{4}$/.test(data.slice(index + 2, index + 6))) return -1;
      index += 5;
    } else if (simpleEscapes.has(escaped)) {
      index += 1;
    } else {
      return -1;
    }
  }
  return -1;
}

/** The characters after a backslash that JSON allows, other than `u`: " \ / b f n r t. */
const simpleEscapes = new Set([34, 92, 47, 98, 102, 110, 114, 116]);

/**
 * OpenAI Chat Completions chunks (OpenAI-compatible servers, Ollama): `choices[0].delta` text.
 * Tool-call argument pieces are not joined here: the SDK ends a chat tool call at the first
 * piece after which its arguments parse as JSON, so joining would change where a malformed
 * stream (an object followed by stray text) is cut, depending on network timing. Responses and
 * Anthropic only accumulate argument pieces until the call's end event, so joining is safe there.
 */
const chatTopLevelKeys = new Set([
  "id",
  "object",
  "created",
  "model",
  "system_fingerprint",
  "service_tier",
  "obfuscation",
  "choices",
  "usage",
]);
const chatChoiceKeys = new Set(["index", "delta", "finish_reason", "logprobs"]);
const chatTextFields = ["content", "reasoning_content", "reasoning"] as const;
const chatDeltaKeys = new Set<string>(["role", ...chatTextFields]);

function chatDelta(value: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!hasOnlyKeys(value, chatTopLevelKeys) || value.usage != null) return undefined;
  const choices = value.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice = choices[0];
  if (!isRecord(choice) || !hasOnlyKeys(choice, chatChoiceKeys)) return undefined;
  if ((choice.index ?? 0) !== 0 || choice.finish_reason != null || choice.logprobs != null) {
    return undefined;
  }
  return isRecord(choice.delta) && hasOnlyKeys(choice.delta, chatDeltaKeys)
    ? choice.delta
    : undefined;
}

/** The one text field a chat delta carries, when it carries exactly one non-empty string. */
function chatTextField(
  delta: Record<string, unknown>,
): (typeof chatTextFields)[number] | undefined {
  let found: (typeof chatTextFields)[number] | undefined;
  for (const field of chatTextFields) {
    const text = delta[field];
    if (text == null || text === "") continue;
    if (typeof text !== "string" || found) return undefined;
    found = field;
  }
  return found;
}

const openaiChatRule: JoinRule = {
  classify(value) {
    const delta = chatDelta(value);
    const field = delta && chatTextField(delta);
    if (!delta || !field) return undefined;
    return {
      key: `${String(value.id)}\n${String(value.model)}\n${field}`,
      kind: field === "content" ? "text" : "reasoning",
      field,
      text: delta[field] as string,
    };
  },
  // A role-only first chunk, a finish reason, usage: choices whose deltas carry no text, no
  // refusal and no tool call.
  quiet(value) {
    if (!hasOnlyKeys(value, chatTopLevelKeys) || !Array.isArray(value.choices)) return false;
    return value.choices.every(
      (choice) =>
        isRecord(choice) &&
        hasOnlyKeys(choice, chatChoiceKeys) &&
        choice.logprobs == null &&
        (choice.delta == null ||
          (isRecord(choice.delta) &&
            hasOnlyKeys(choice.delta, chatQuietDeltaKeys) &&
            choice.delta.refusal == null &&
            chatTextFields.every((field) => {
              const text = (choice.delta as Record<string, unknown>)[field];
              return text == null || text === "";
            }))),
    );
  },
};
const chatQuietDeltaKeys = new Set<string>([...chatDeltaKeys, "refusal"]);

/** OpenAI Responses events that carry a string `delta` for one item, and the fields naming it. */
const responsesDeltaEvents: Record<string, readonly string[]> = {
  "response.output_text.delta": ["item_id", "output_index", "content_index"],
  "response.reasoning_summary_text.delta": ["item_id", "output_index", "summary_index"],
  "response.function_call_arguments.delta": ["item_id", "output_index"],
};
const responsesNoiseKeys = ["type", "sequence_number", "delta", "obfuscation", "logprobs"];
const responsesDeltaKinds: Record<string, JoinKind> = {
  "response.output_text.delta": "text",
  "response.reasoning_summary_text.delta": "reasoning",
  "response.function_call_arguments.delta": "tool-input",
};
/** Responses events that never become anything but text's frame (or usage and the finish). */
const responsesQuietEvents = new Set([
  "response.created",
  "response.in_progress",
  "response.content_part.added",
  "response.content_part.done",
  "response.output_text.done",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_part.done",
  "response.reasoning_summary_text.done",
  "response.completed",
]);
const responsesQuietItems = new Set(["message", "reasoning"]);

const openaiResponsesRule: JoinRule = {
  classify(value) {
    const identity = responsesDeltaEvents[String(value.type)];
    if (!identity || typeof value.delta !== "string") return undefined;
    // Log probabilities are per token; joined text would mismatch them, so such events pass.
    if (Array.isArray(value.logprobs) ? value.logprobs.length > 0 : value.logprobs != null) {
      return undefined;
    }
    if (!hasOnlyKeys(value, new Set([...identity, ...responsesNoiseKeys]))) return undefined;
    return {
      key: [value.type, ...identity.map((field) => JSON.stringify(value[field]))].join("\n"),
      kind: responsesDeltaKinds[String(value.type)],
      field: "delta",
      text: value.delta,
    };
  },
  quiet(value) {
    const type = String(value.type);
    if (responsesQuietEvents.has(type)) return true;
    if (type !== "response.output_item.added" && type !== "response.output_item.done") {
      return false;
    }
    return isRecord(value.item) && responsesQuietItems.has(String(value.item.type));
  },
};

/** Anthropic Messages `content_block_delta` events, by the text field of each delta type. */
const anthropicTextFields: Record<string, string> = {
  text_delta: "text",
  thinking_delta: "thinking",
  input_json_delta: "partial_json",
};
const anthropicDeltaKinds: Record<string, JoinKind> = {
  text_delta: "text",
  thinking_delta: "reasoning",
  input_json_delta: "tool-input",
};
/** Anthropic events that carry nothing the person sees: framing, keep-alives, usage. */
const anthropicQuietEvents = new Set([
  "message_start",
  "ping",
  "content_block_stop",
  "message_delta",
  "message_stop",
]);
const anthropicTopLevelKeys = new Set(["type", "index", "delta"]);

function anthropicDelta(
  value: Record<string, unknown>,
): { delta: Record<string, unknown>; field: string } | undefined {
  if (value.type !== "content_block_delta" || !hasOnlyKeys(value, anthropicTopLevelKeys)) {
    return undefined;
  }
  const delta = value.delta;
  if (!isRecord(delta)) return undefined;
  const field = anthropicTextFields[String(delta.type)];
  if (!field || typeof delta[field] !== "string" || !hasOnlyKeys(delta, new Set(["type", field]))) {
    return undefined;
  }
  return { delta, field };
}

const anthropicRule: JoinRule = {
  classify(value) {
    const found = anthropicDelta(value);
    if (!found) return undefined;
    return {
      key: `${JSON.stringify(value.index)}\n${String(found.delta.type)}`,
      kind: anthropicDeltaKinds[String(found.delta.type)],
      field: found.field,
      text: found.delta[found.field] as string,
    };
  },
  quiet(value) {
    if (anthropicQuietEvents.has(String(value.type))) return true;
    if (value.type === "content_block_delta") {
      return isRecord(value.delta) && value.delta.type === "signature_delta";
    }
    if (value.type !== "content_block_start" || !isRecord(value.content_block)) return false;
    // A text or thinking block opens empty; its text follows in deltas.
    const block = value.content_block;
    return (
      (block.type === "text" && block.text === "") ||
      (block.type === "thinking" && block.thinking === "")
    );
  },
};

const joinRules: Record<ProviderStreamFormat, JoinRule> = {
  "openai-chat": openaiChatRule,
  "openai-responses": openaiResponsesRule,
  anthropic: anthropicRule,
};

function serialize(event: string | undefined, id: string | undefined, data: string): string {
  let text = "";
  if (event !== undefined) text += `event: ${event}\n`;
  if (id !== undefined) text += `id: ${id}\n`;
  // A data value with line breaks is one data field per line (the SSE rule the parser undid).
  for (const line of data.split("\n")) text += `data: ${line}\n`;
  return `${text}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}
