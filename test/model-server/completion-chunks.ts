import { type PlannedAnswer, splitArguments } from "./plan-answer";

/** Fields every chunk and completion of one answer share, as OpenAI sends them. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/** Streamed text and reasoning, before any tool call; `hang` steps send only these. */
export function contentChunks(answer: PlannedAnswer, identity: CompletionIdentity): object[] {
  const chunk = (delta: object) => ({
    ...identity,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: null }],
  });
  return [
    chunk({ role: "assistant", content: "" }),
    ...answer.reasoning.map((reasoning) => chunk({ reasoning_content: reasoning })),
    ...answer.text.map((content) => chunk({ content })),
  ];
}

/** Tool calls (name first, arguments in pieces), the finish reason, then usage when asked. */
export function closingChunks(
  answer: PlannedAnswer,
  identity: CompletionIdentity,
  { includeUsage }: { includeUsage: boolean },
): object[] {
  const chunk = (delta: object, finishReason: string | null = null) => ({
    ...identity,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const toolCallChunks = answer.toolCalls.flatMap((call, index) => [
    chunk({
      tool_calls: [
        { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
      ],
    }),
    ...splitArguments(call.arguments).map((piece) =>
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] }),
    ),
  ]);
  return [
    ...toolCallChunks,
    chunk({}, answer.finishReason),
    // OpenAI sends usage in a last chunk with no choices, and only when the request asks.
    ...(includeUsage
      ? [{ ...identity, object: "chat.completion.chunk", choices: [], usage: answer.usage }]
      : []),
  ];
}

/** The whole answer as one non-streaming `chat.completion`. */
export function completionBody(answer: PlannedAnswer, identity: CompletionIdentity): object {
  const content = answer.text.join("");
  const reasoning = answer.reasoning.join("");
  return {
    ...identity,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: content === "" ? null : content,
          ...(reasoning === "" ? {} : { reasoning_content: reasoning }),
          ...(answer.toolCalls.length === 0
            ? {}
            : {
                tool_calls: answer.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }),
        },
        finish_reason: answer.finishReason,
      },
    ],
    usage: answer.usage,
  };
}
