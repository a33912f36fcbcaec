import { z } from "zod";
import type { StepContext } from "./scenario";

const messageSchema = z
  .object({
    role: z.string(),
    content: z.unknown().optional(),
  })
  .loose();

/** The parts of an OpenAI chat completion request the scripted server reads. */
export const chatCompletionRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(messageSchema),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().nullish() }).loose().nullish(),
    tools: z
      .array(z.object({ function: z.object({ name: z.string() }).loose() }).loose())
      .nullish(),
  })
  .loose();

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;
type ChatMessage = ChatCompletionRequest["messages"][number];

/**
 * The step rule. Selection is stateless: the step index is the number of assistant messages
 * after the last user message. The first call of a run sees none (step 0); each round trip of
 * the tool loop appends one assistant message (its text and tool calls) and the tool results,
 * so the next call gets the next step. Earlier turns of the conversation sit before the last
 * user message and do not count, and a side request (a title, a summary) is answered from its
 * own messages without changing what the agent's next request gets.
 */
export function selectStepIndex(messages: readonly ChatMessage[]): number {
  const lastUserIndex = messages.findLastIndex((message) => message.role === "user");
  return messages.slice(lastUserIndex + 1).filter((message) => message.role === "assistant").length;
}

/** The names of the tools the request offers the model. */
export function offeredToolNames(request: ChatCompletionRequest): string[] {
  return (request.tools ?? []).map((tool) => tool.function.name);
}

/** What a step (its expectations, or a programmed step) may look at. */
export function describeStepContext(request: ChatCompletionRequest): StepContext {
  const { messages } = request;
  const lastUser = messages.findLast((message) => message.role === "user");
  const lastAssistantIndex = messages.findLastIndex((message) => message.role === "assistant");
  const toolResults = messages
    .slice(lastAssistantIndex + 1)
    .filter((message) => message.role === "tool")
    .map((message) => spellOut(contentText(message.content)))
    .join("\n");
  return {
    stepIndex: selectStepIndex(messages),
    lastUserText: lastUser ? contentText(lastUser.content) : "",
    toolResults,
    offeredTools: offeredToolNames(request),
  };
}

/** Message content is a string or a list of parts; only the text matters here. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
          ? (part as { text: string }).text
          : "",
      )
      .join("");
  }
  return "";
}

/**
 * Tool results usually arrive as JSON, where a file's quotes and newlines are escaped; the
 * strings inside are added unescaped so an expectation can name text as it is in the file.
 */
function spellOut(text: string): string {
  try {
    const strings: string[] = [];
    collectStrings(JSON.parse(text), strings);
    return strings.length > 0 ? `${text}\n${strings.join("\n")}` : text;
  } catch {
    return text;
  }
}

function collectStrings(value: unknown, strings: string[]): void {
  if (typeof value === "string") {
    strings.push(value);
    // A JSON string holding JSON (a double-encoded result) is spelled out too.
    if (/^\s*[[{]/.test(value)) {
      try {
        collectStrings(JSON.parse(value), strings);
      } catch {
        // Plain text that happens to start with a bracket.
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, strings);
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) collectStrings(item, strings);
  }
}
