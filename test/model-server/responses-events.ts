import type { PlannedAnswer, PlannedToolCall } from "./plan-answer";
import { splitArguments } from "./plan-answer";

export interface ResponseIdentity {
  id: string;
  created: number;
  model: string;
}

/** One server-sent event of the Responses stream: `event: <type>` and its JSON `data`. */
export interface ResponsesEvent {
  type: string;
  [field: string]: unknown;
}

/**
 * A custom (freeform) tool such as Codex's `apply_patch` takes raw text, not JSON: a scripted
 * call to one sends `arguments.input` (or the arguments string itself) as that text.
 */
function customToolInput(call: PlannedToolCall): string {
  try {
    const parsed = JSON.parse(call.arguments) as unknown;
    if (
      parsed &&
      typeof parsed === "object" &&
      typeof (parsed as { input?: unknown }).input === "string"
    )
      return (parsed as { input: string }).input;
  } catch {
    // Not JSON: the text itself.
  }
  return call.arguments;
}

function outputItem(call: PlannedToolCall, customTools: ReadonlySet<string>, index: number) {
  return customTools.has(call.name)
    ? {
        type: "custom_tool_call",
        id: `ctc_${index}`,
        call_id: call.id,
        name: call.name,
        input: customToolInput(call),
        status: "completed",
      }
    : {
        type: "function_call",
        id: `fc_${index}`,
        call_id: call.id,
        name: call.name,
        arguments: call.arguments,
        status: "completed",
      };
}

/** The opening events and the streamed text; a `hang` step sends only these. */
export function responsesContentEvents(
  answer: PlannedAnswer,
  identity: ResponseIdentity,
): ResponsesEvent[] {
  const response = {
    id: identity.id,
    object: "response",
    created_at: identity.created,
    status: "in_progress",
    model: identity.model,
    output: [],
  };
  const events: ResponsesEvent[] = [
    { type: "response.created", response },
    { type: "response.in_progress", response },
  ];
  if (answer.reasoning.length > 0) {
    const reasoningItem = { type: "reasoning", id: "rs_0", summary: [] };
    events.push(
      { type: "response.output_item.added", output_index: 0, item: reasoningItem },
      ...answer.reasoning.map((delta) => ({
        type: "response.reasoning_summary_text.delta",
        item_id: "rs_0",
        output_index: 0,
        summary_index: 0,
        delta,
      })),
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          ...reasoningItem,
          summary: [{ type: "summary_text", text: answer.reasoning.join("") }],
        },
      },
    );
  }
  if (answer.text.length > 0) {
    const messageIndex = answer.reasoning.length > 0 ? 1 : 0;
    events.push(
      {
        type: "response.output_item.added",
        output_index: messageIndex,
        item: {
          type: "message",
          id: "msg_0",
          status: "in_progress",
          role: "assistant",
          content: [],
        },
      },
      {
        type: "response.content_part.added",
        item_id: "msg_0",
        output_index: messageIndex,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      },
      ...answer.text.map((delta) => ({
        type: "response.output_text.delta",
        item_id: "msg_0",
        output_index: messageIndex,
        content_index: 0,
        delta,
      })),
    );
  }
  return events;
}

/** The rest: the message's end, each tool call (arguments in pieces), and `response.completed`. */
export function responsesClosingEvents(
  answer: PlannedAnswer,
  identity: ResponseIdentity,
  customTools: ReadonlySet<string>,
): ResponsesEvent[] {
  const events: ResponsesEvent[] = [];
  const output: object[] = [];
  let index = 0;
  if (answer.reasoning.length > 0) {
    output.push({
      type: "reasoning",
      id: "rs_0",
      summary: [{ type: "summary_text", text: answer.reasoning.join("") }],
    });
    index += 1;
  }
  if (answer.text.length > 0) {
    const text = answer.text.join("");
    const message = {
      type: "message",
      id: "msg_0",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    };
    events.push(
      {
        type: "response.output_text.done",
        item_id: "msg_0",
        output_index: index,
        content_index: 0,
        text,
      },
      { type: "response.output_item.done", output_index: index, item: message },
    );
    output.push(message);
    index += 1;
  }
  for (const call of answer.toolCalls) {
    const item = outputItem(call, customTools, index);
    const pending =
      item.type === "custom_tool_call" ? { ...item, input: "" } : { ...item, arguments: "" };
    events.push({
      type: "response.output_item.added",
      output_index: index,
      item: { ...pending, status: "in_progress" },
    });
    const deltaType =
      item.type === "custom_tool_call"
        ? "response.custom_tool_call_input.delta"
        : "response.function_call_arguments.delta";
    const whole = item.type === "custom_tool_call" ? (item.input as string) : call.arguments;
    for (const delta of splitArguments(whole))
      events.push({ type: deltaType, item_id: item.id, output_index: index, delta });
    events.push({ type: "response.output_item.done", output_index: index, item });
    output.push(item);
    index += 1;
  }
  const cached = answer.usage.prompt_tokens_details?.cached_tokens ?? 0;
  events.push({
    type: "response.completed",
    response: {
      id: identity.id,
      object: "response",
      created_at: identity.created,
      status: "completed",
      model: identity.model,
      output,
      usage: {
        input_tokens: answer.usage.prompt_tokens,
        input_tokens_details: { cached_tokens: cached },
        output_tokens: answer.usage.completion_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: answer.usage.total_tokens,
      },
    },
  });
  return events;
}

/** The whole answer as one non-streaming `response` object. */
export function responsesBody(
  answer: PlannedAnswer,
  identity: ResponseIdentity,
  customTools: ReadonlySet<string>,
): object {
  const completed = responsesClosingEvents(answer, identity, customTools).at(-1);
  return completed?.response as object;
}

/** `event:` and `data:` lines, as the Responses API frames its stream. */
export function responsesFrame(event: ResponsesEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
