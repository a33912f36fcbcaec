import { z } from "zod";
import type { StepContext } from "./scenario";

const inputItemSchema = z
  .object({
    type: z.string().optional(),
    role: z.string().optional(),
    content: z.unknown().optional(),
    output: z.unknown().optional(),
  })
  .loose();

/** The parts of an OpenAI Responses API request (`POST /v1/responses`) the server reads. */
export const responsesRequestSchema = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(inputItemSchema)]),
    stream: z.boolean().nullish(),
    tools: z.array(z.object({ type: z.string(), name: z.string().optional() }).loose()).nullish(),
  })
  .loose();

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
type InputItem = z.infer<typeof inputItemSchema>;

/** Items the model itself produced in an earlier round of this turn. */
const modelItemTypes = new Set([
  "message",
  "reasoning",
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "web_search_call",
]);
const outputItemTypes = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "local_shell_call_output",
]);

function isModelItem(item: InputItem): boolean {
  const type = item.type ?? "message";
  if (type === "message") return item.role === "assistant";
  return modelItemTypes.has(type);
}

function isUserMessage(item: InputItem): boolean {
  return (item.type ?? "message") === "message" && item.role === "user";
}

/**
 * The step rule of the chat format, for Responses input: the step index is the number of model
 * rounds after the last user message, where a round is a run of model items (text, reasoning,
 * tool calls) that tool outputs then answer. An agent that sends the whole conversation each
 * time (Codex does) thus gets step 0, 1, 2… as its tool loop goes round.
 */
export function describeResponsesStepContext(request: ResponsesRequest): StepContext {
  const items: InputItem[] =
    typeof request.input === "string"
      ? [{ type: "message", role: "user", content: request.input }]
      : request.input;
  const lastUserIndex = items.findLastIndex(isUserMessage);
  let stepIndex = 0;
  let inRound = false;
  for (const item of items.slice(lastUserIndex + 1)) {
    if (isModelItem(item)) {
      if (!inRound) stepIndex += 1;
      inRound = true;
    } else if (outputItemTypes.has(item.type ?? "")) {
      inRound = false;
    }
  }
  const lastModelIndex = items.findLastIndex(isModelItem);
  const toolResults = items
    .slice(lastModelIndex + 1)
    .filter((item) => outputItemTypes.has(item.type ?? ""))
    .map((item) => outputText(item.output))
    .join("\n");
  return {
    stepIndex,
    lastUserText: lastUserIndex === -1 ? "" : contentText(items[lastUserIndex].content),
    toolResults,
    offeredTools: (request.tools ?? []).flatMap((tool) => (tool.name ? [tool.name] : [])),
  };
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
        ? (part as { text: string }).text
        : "",
    )
    .join("");
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return contentText(output);
  return output === undefined ? "" : JSON.stringify(output);
}
