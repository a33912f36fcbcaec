import type { ModelMessage } from "ai";

export interface ConversationTurn {
  user: string;
  assistant: string;
  /** One line per tool call of that turn, e.g. "apply_patch src/App.tsx +3 −1". */
  tools: string[];
}

/**
 * Builds the prior-turn messages within a character budget. Over budget, the oldest turns lose
 * their tool notes first, then their assistant text, then whole turns go — the person's own
 * words are the last thing dropped, because they say what was wanted.
 */
export function compactConversation(
  turns: ConversationTurn[],
  budgetChars: number,
): ModelMessage[] {
  const working = turns.map((turn) => ({
    ...turn,
    tools: [...turn.tools],
    assistant: turn.assistant as string | null,
  }));
  const size = () =>
    working.reduce(
      (sum, turn) =>
        sum + turn.user.length + (turn.assistant?.length ?? 0) + turn.tools.join("\n").length,
      0,
    );
  for (const turn of working) {
    if (size() <= budgetChars) break;
    turn.tools = [];
  }
  for (const turn of working) {
    if (size() <= budgetChars) break;
    turn.assistant = null;
  }
  while (working.length > 0 && size() > budgetChars) working.shift();

  const messages: ModelMessage[] = [];
  for (const turn of working) {
    messages.push({ role: "user", content: turn.user });
    const notes = turn.tools.length > 0 ? `\n\n[Tools used: ${turn.tools.join("; ")}]` : "";
    const assistant =
      turn.assistant === null ? "[earlier reply omitted]" : turn.assistant || "(no reply)";
    messages.push({ role: "assistant", content: `${assistant}${notes}` });
  }
  return messages;
}
