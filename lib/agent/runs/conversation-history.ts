import "server-only";
import type { ModelMessage } from "ai";
import type { Executor } from "@/db/client";
import { getAppById } from "@/db/queries/apps";
import { listRunsForApp, listToolEventsForRuns } from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import { getEnvironment } from "@/lib/env";
import { type ConversationTurn, compactConversation } from "./conversation";

/**
 * The messages for a run: earlier turns (the request's own `messages` when given, else the app's
 * stored conversation) compacted to the budget, then this run's input.
 */
export async function loadConversation(
  db: Executor,
  run: AgentRunRow,
): Promise<{ appName: string; messages: ModelMessage[] }> {
  const app = await getAppById(db, { id: run.appId });
  const budget = getEnvironment().APPS_CODING_AGENT_MESSAGE_BUDGET_CHARS;
  let turns: ConversationTurn[];
  if (Array.isArray(run.messages)) {
    turns = turnsFromMessages(run.messages as { role: string; content: string }[]);
  } else {
    const earlier = (await listRunsForApp(db, { appId: run.appId, limit: 50 })).filter(
      (candidate) =>
        candidate.id !== run.id &&
        candidate.createdAt <= run.createdAt &&
        candidate.status !== "queued" &&
        candidate.status !== "running",
    );
    const toolEvents = await listToolEventsForRuns(db, {
      runIds: earlier.map((candidate) => candidate.id),
    });
    turns = earlier.map((candidate) => ({
      user: candidate.input,
      assistant:
        candidate.outputText +
        (candidate.status === "completed" ? "" : ` [run ${candidate.status}]`),
      tools: toolEvents
        .filter((event) => event.runId === candidate.id)
        .map((event) => {
          const payload = event.payload as {
            tool?: string;
            summary?: string;
            message?: string;
            title?: string;
          };
          return event.type === "tool.completed"
            ? `${payload.title ?? payload.tool}: ${payload.summary ?? "done"}`
            : `${payload.title ?? payload.tool}: failed (${payload.message ?? "error"})`;
        }),
    }));
  }
  const history = compactConversation(turns, Math.max(0, budget - run.input.length));
  return {
    appName: app?.name ?? "the app",
    messages: [...history, { role: "user", content: run.input }],
  };
}

function turnsFromMessages(messages: { role: string; content: string }[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const message of messages) {
    if (message.role === "user") turns.push({ user: message.content, assistant: "", tools: [] });
    else if (message.role === "assistant") {
      if (turns.length === 0) turns.push({ user: "", assistant: "", tools: [] });
      const last = turns[turns.length - 1];
      last.assistant = last.assistant ? `${last.assistant}\n${message.content}` : message.content;
    }
  }
  return turns;
}
