import { type AgentRun, type ConversationMessage, isActiveRun } from "./agent-api-types";

/*
 * `/clear` starts a fresh conversation without deleting anything: the panel remembers, per app,
 * the last run before the clear, shows the runs after it, and sends only those as the earlier
 * turns of the next run. The runs before it stay one click away.
 */

export function clearedAfterStorageKey(appId: string): string {
  return `patchwork:agent:cleared-after:${appId}`;
}

/** Runs before the clear (history) and after it (the current conversation), oldest first. */
export function splitConversation(
  runs: readonly AgentRun[],
  clearedAfterRunId: string | null,
): { earlier: AgentRun[]; current: AgentRun[] } {
  const index = clearedAfterRunId ? runs.findIndex((run) => run.id === clearedAfterRunId) : -1;
  if (index < 0) return { earlier: [], current: [...runs] };
  return { earlier: runs.slice(0, index + 1), current: runs.slice(index + 1) };
}

/**
 * The earlier turns to send with the next run: undefined (the server uses the app's stored
 * conversation) unless the conversation was cleared, then only the turns since the clear.
 */
/** The API's limits on `messages`: 200 entries of at most 100,000 characters. */
const maximumMessages = 200;
const maximumMessageCharacters = 100_000;

export function messagesForNextRun(
  current: readonly AgentRun[],
  cleared: boolean,
): ConversationMessage[] | undefined {
  if (!cleared) return undefined;
  return current
    .filter((run) => !isActiveRun(run))
    .flatMap((run): ConversationMessage[] => [
      { role: "user", content: run.input },
      {
        role: "assistant",
        content:
          run.output_text.trim() ||
          (run.status === "completed" ? "(no reply)" : `(the run ${run.status})`),
      },
    ])
    .slice(-maximumMessages)
    .map((message) => ({
      ...message,
      content: message.content.slice(0, maximumMessageCharacters),
    }));
}
