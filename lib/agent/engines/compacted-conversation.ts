import type { ModelMessage } from "ai";
import type { EngineRunInput } from "./engine";

function textOf(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => ("text" in part && typeof part.text === "string" ? part.text : ""))
    .join("");
}

/**
 * The prompt for an external engine starting a fresh session: the app's earlier turns (already
 * compacted to the message budget by the executor) as a transcript, then this run's words. Used
 * on a first run with history from another engine, and when a stored session cannot be resumed.
 */
export function promptWithConversation(input: EngineRunInput): string {
  const earlier = input.conversation.messages.slice(0, -1);
  if (earlier.length === 0) return input.input;
  const transcript = earlier
    .map((message) => `${message.role === "user" ? "Person" : "You"}: ${textOf(message.content)}`)
    .join("\n\n");
  return [
    `This continues an earlier conversation about ${input.conversation.appName}. What was said so far:`,
    "",
    transcript,
    "",
    "The files in this folder already hold the result of that conversation. The person now says:",
    "",
    input.input,
  ].join("\n");
}
