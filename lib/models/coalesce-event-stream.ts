import { createParser, type EventSourceMessage } from "eventsource-parser";

/** The streaming wire formats whose small pieces we know how to join. */
export type ProviderStreamFormat = "openai-chat" | "openai-responses" | "anthropic";

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
): TransformStream<Uint8Array, Uint8Array> {
  const joinRule = joinRules[format];
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let controller: TransformStreamDefaultController<Uint8Array> | undefined;
  let pending: PendingEvent | undefined;
  let scheduledFlush: NodeJS.Immediate | undefined;
  let output = "";

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
    if (output === "" || !controller) return;
    const text = output;
    output = "";
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      // The reader went away (the run was cancelled or timed out) while a join waited for its
      // turn of the event loop: there is nobody left to give it to.
      controller = undefined;
    }
  };
  const drain = () => {
    scheduledFlush = undefined;
    emitPending();
    send();
  };
  const parser = createParser({
    onEvent(message) {
      if (pending) {
        // The fast path: the same event as the pending one but for its text needs no parsing.
        const body = bodyInTemplate(pending, message);
        if (body !== undefined && pending.size + body.length <= maximumJoinedChars) {
          pending.bodies.push(body);
          pending.size += body.length;
          return;
        }
      }
      const candidate = joinable(joinRule, message);
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

  return new TransformStream<Uint8Array, Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    transform(chunk) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      // What precedes the last joinable piece can go now; that piece waits one turn of the event
      // loop, in case more of it is already queued behind this chunk.
      send();
      if (pending) scheduledFlush ??= setImmediate(drain);
    },
    flush() {
      if (scheduledFlush) clearImmediate(scheduledFlush);
      // An event cut off without its blank line is dropped, as the AI SDK's own parser drops it.
      parser.feed(decoder.decode());
      drain();
      controller = undefined;
    },
  });
}

/**
 * Wraps a fetch so that a successful event-stream answer is read through
 * {@link coalesceEventStream}; every other answer is returned untouched.
 */
export function coalescingFetch(
  format: ProviderStreamFormat,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const contentType = response.headers.get("content-type") ?? "";
    if (!response.ok || !response.body || !contentType.startsWith("text/event-stream")) {
      return response;
    }
    return new Response(response.body.pipeThrough(coalesceEventStream(format)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Joined text (as JSON-escaped characters) is capped so one event never grows without bound. */
const maximumJoinedChars = 64 * 1024;

/**
 * A joinable event split around its text: `prefix + "<body>" + suffix` is its data, where body is
 * the text as a JSON string's characters (escaped, without the quotes).
 */
interface JoinCandidate {
  /** Events join only with a pending event of the same key (same block, same kind of text). */
  key: string;
  prefix: string;
  body: string;
  suffix: string;
}

interface PendingEvent {
  /** The first piece: its event name, id and (when nothing joined it) data go out unchanged. */
  message: EventSourceMessage;
  key: string;
  prefix: string;
  suffix: string;
  /** Each joined piece's body, in order: concatenated they are the joined text's body. */
  bodies: string[];
  /** JSON-escaped characters joined so far. */
  size: number;
}

interface JoinRule {
  /**
   * The join key of an event, the name of the field that holds its text and the text, or
   * undefined when it must pass through as it is.
   */
  classify(
    value: Record<string, unknown>,
  ): { key: string; field: string; text: string } | undefined;
}

function joinable(rule: JoinRule, message: EventSourceMessage): JoinCandidate | undefined {
  // Cheap refusals before parsing: the end marker, and anything that is not a JSON object.
  if (message.data.charCodeAt(0) !== 123 /* { */) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(message.data);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const classified = rule.classify(value);
  if (!classified) return undefined;
  // Where the text is in the data as the provider wrote it, so that later pieces written the same
  // way can be recognised without parsing. A provider that writes something we cannot locate
  // (the field twice, say) still joins, around our own serialisation of the event.
  const split =
    splitAroundText(message.data, classified.field, classified.text) ??
    splitAroundText(JSON.stringify(value), classified.field, classified.text);
  if (!split) return undefined;
  return { key: `${message.event ?? ""}\n${classified.key}`, ...split };
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
      field,
      text: delta[field] as string,
    };
  },
};

/** OpenAI Responses events that carry a string `delta` for one item, and the fields naming it. */
const responsesDeltaEvents: Record<string, readonly string[]> = {
  "response.output_text.delta": ["item_id", "output_index", "content_index"],
  "response.reasoning_summary_text.delta": ["item_id", "output_index", "summary_index"],
  "response.function_call_arguments.delta": ["item_id", "output_index"],
};
const responsesNoiseKeys = ["type", "sequence_number", "delta", "obfuscation", "logprobs"];

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
      field: "delta",
      text: value.delta,
    };
  },
};

/** Anthropic Messages `content_block_delta` events, by the text field of each delta type. */
const anthropicTextFields: Record<string, string> = {
  text_delta: "text",
  thinking_delta: "thinking",
  input_json_delta: "partial_json",
};
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
      field: found.field,
      text: found.delta[found.field] as string,
    };
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
