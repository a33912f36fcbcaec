import type { Step } from "./scenario";

export interface PlannedToolCall {
  id: string;
  name: string;
  /** Exactly what goes on the wire, deliberately malformed JSON included. */
  arguments: string;
}

/** A step turned into what the server sends, the same for streaming and non-streaming answers. */
export interface PlannedAnswer {
  reasoning: string[];
  text: string[];
  toolCalls: PlannedToolCall[];
  finishReason: "stop" | "tool_calls";
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } & {
    prompt_tokens_details?: { cached_tokens: number };
  };
}

/** Roughly four characters per token, the usual rule of thumb, when a step gives no usage. */
function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}

/**
 * Expands a step: repeated text, tool-call ids and JSON arguments, usage. A request that offers
 * no tools gets the step without its tool calls (and "Done." if nothing else is left), so a
 * side request such as a title never receives a call it cannot handle.
 */
export function planAnswer(
  step: Step,
  {
    stepIndex,
    promptCharacters,
    toolsOffered,
  }: {
    stepIndex: number;
    promptCharacters: number;
    toolsOffered: boolean;
  },
): PlannedAnswer {
  const text = [...(step.text ?? [])];
  if (step.repeat_text) {
    for (let index = 0; index < step.repeat_text.count; index++) {
      text.push(step.repeat_text.text.replaceAll("{i}", String(index)));
    }
  }
  const toolCalls = toolsOffered
    ? (step.tool_calls ?? []).map((call, index) => ({
        id: call.id ?? `call_${stepIndex}_${index}`,
        name: call.name,
        arguments:
          typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
      }))
    : [];
  if (text.length === 0 && toolCalls.length === 0 && !step.hang) text.push("Done.");

  const reasoning = step.reasoning ?? [];
  const outputCharacters = [...reasoning, ...text, ...toolCalls.map((call) => call.arguments)].join(
    "",
  ).length;
  const promptTokens = step.usage?.prompt_tokens ?? estimateTokens(promptCharacters);
  const completionTokens = step.usage?.completion_tokens ?? estimateTokens(outputCharacters);
  return {
    reasoning,
    text,
    toolCalls,
    finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(step.usage?.cached_tokens === undefined
        ? {}
        : { prompt_tokens_details: { cached_tokens: step.usage.cached_tokens } }),
    },
  };
}

/** Splits tool-call arguments into a few pieces so clients exercise incremental parsing. */
export function splitArguments(argumentsText: string, pieces = 3): string[] {
  if (argumentsText.length < pieces * 2) return [argumentsText];
  const size = Math.ceil(argumentsText.length / pieces);
  const parts: string[] = [];
  for (let start = 0; start < argumentsText.length; start += size) {
    parts.push(argumentsText.slice(start, start + size));
  }
  return parts;
}
