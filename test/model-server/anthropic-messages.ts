import { z } from "zod";
import type { PlannedAnswer } from "./plan-answer";
import { splitArguments } from "./plan-answer";
import type { StepContext } from "./scenario";

const contentBlockSchema = z
  .object({ type: z.string(), text: z.string().optional(), content: z.unknown().optional() })
  .loose();

/** The parts of an Anthropic Messages request (`POST /v1/messages`) the server reads. */
export const anthropicMessagesRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(
      z
        .object({ role: z.string(), content: z.union([z.string(), z.array(contentBlockSchema)]) })
        .loose(),
    ),
    stream: z.boolean().nullish(),
    tools: z.array(z.object({ name: z.string() }).loose()).nullish(),
  })
  .loose();

export type AnthropicMessagesRequest = z.infer<typeof anthropicMessagesRequestSchema>;
type Message = AnthropicMessagesRequest["messages"][number];

const blocksOf = (message: Message) =>
  typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;

/**
 * Tool results travel as user messages (sometimes with reminder text beside them): the person's
 * turn is a user message with text and no tool result.
 */
const isPersonTurn = (message: Message) =>
  message.role === "user" &&
  blocksOf(message).some((block) => block.type === "text") &&
  !blocksOf(message).some((block) => block.type === "tool_result");

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value
    .map((block) =>
      block && typeof block === "object" && typeof block.text === "string" ? block.text : "",
    )
    .join("");
}

/**
 * The chat step rule for Anthropic messages: the step index is the number of assistant messages
 * after the person's last turn (tool results, which come back as user messages, do not count).
 */
export function describeAnthropicStepContext(request: AnthropicMessagesRequest): StepContext {
  const { messages } = request;
  const lastTurn = messages.findLastIndex(isPersonTurn);
  const after = messages.slice(lastTurn + 1);
  const lastAssistant = messages.findLastIndex((message) => message.role === "assistant");
  const toolResults = messages
    .slice(lastAssistant + 1)
    .flatMap((message) => (message.role === "user" ? blocksOf(message) : []))
    .filter((block) => block.type === "tool_result")
    .map((block) => textOf(block.content))
    .join("\n");
  return {
    stepIndex: after.filter((message) => message.role === "assistant").length,
    lastUserText: lastTurn === -1 ? "" : textOf(blocksOf(messages[lastTurn])),
    toolResults,
    offeredTools: (request.tools ?? []).map((tool) => tool.name),
  };
}

export interface AnthropicIdentity {
  id: string;
  model: string;
}

/** The opening of the stream and its text; a `hang` step sends only these. */
export function anthropicContentEvents(
  answer: PlannedAnswer,
  identity: AnthropicIdentity,
): { event: string; data: object }[] {
  const events: { event: string; data: object }[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: identity.id,
          type: "message",
          role: "assistant",
          model: identity.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: answer.usage.prompt_tokens,
            output_tokens: 1,
            cache_read_input_tokens: answer.usage.prompt_tokens_details?.cached_tokens ?? 0,
            cache_creation_input_tokens: 0,
          },
        },
      },
    },
  ];
  let index = 0;
  for (const [kind, pieces] of [
    ["thinking", answer.reasoning],
    ["text", answer.text],
  ] as const) {
    if (pieces.length === 0) continue;
    events.push({
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block:
          kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" },
      },
    });
    for (const piece of pieces) {
      events.push({
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index,
          delta:
            kind === "text"
              ? { type: "text_delta", text: piece }
              : { type: "thinking_delta", thinking: piece },
        },
      });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index += 1;
  }
  return events;
}

/** Tool uses (input JSON in pieces), the stop reason with usage, and the end. */
export function anthropicClosingEvents(
  answer: PlannedAnswer,
  firstIndex: number,
): { event: string; data: object }[] {
  const events: { event: string; data: object }[] = [];
  answer.toolCalls.forEach((call, offset) => {
    const index = firstIndex + offset;
    events.push({
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: `toolu_${call.id}`, name: call.name, input: {} },
      },
    });
    for (const piece of splitArguments(call.arguments)) {
      events.push({
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: piece },
        },
      });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: {
          stop_reason: answer.toolCalls.length > 0 ? "tool_use" : "end_turn",
          stop_sequence: null,
        },
        usage: { output_tokens: answer.usage.completion_tokens },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  return events;
}

/** The whole answer as one non-streaming Messages response. */
export function anthropicMessageBody(answer: PlannedAnswer, identity: AnthropicIdentity): object {
  const content: object[] = [];
  if (answer.reasoning.length > 0)
    content.push({ type: "thinking", thinking: answer.reasoning.join(""), signature: "" });
  if (answer.text.length > 0) content.push({ type: "text", text: answer.text.join("") });
  for (const call of answer.toolCalls)
    content.push({
      type: "tool_use",
      id: `toolu_${call.id}`,
      name: call.name,
      input: JSON.parse(call.arguments || "{}"),
    });
  return {
    id: identity.id,
    type: "message",
    role: "assistant",
    model: identity.model,
    content,
    stop_reason: answer.toolCalls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: answer.usage.prompt_tokens,
      output_tokens: answer.usage.completion_tokens,
    },
  };
}
