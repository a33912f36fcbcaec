"use client";

import { ArrowDown, Clock, X } from "lucide-react";
import type { ReactNode } from "react";
import { StickToBottom, useStickToBottomContext } from "use-stick-to-bottom";
import type { AgentRun } from "./agent-api-types";
import type { RunDiffTarget } from "./run-diff-dialog";
import { RunTurn } from "./run-turn";
import { ThinkingIndicator } from "./thinking-indicator";
import type { QueuedMessage } from "./use-agent-conversation";
import { UserMessage } from "./user-message";

/**
 * The scrolling conversation: sticks to the bottom while a reply streams, lets go when the
 * person scrolls up, and offers a way back. Its height is the panel's, never the content's.
 */
export function ConversationView({
  appId,
  earlierRuns,
  showEarlier,
  onShowEarlier,
  runs,
  pendingInput,
  queued = [],
  onRemoveQueued,
  empty,
  onOpenDiff,
  onRetry,
}: {
  appId: string;
  /** Runs before the last /clear: hidden behind a button until asked for. */
  earlierRuns: AgentRun[];
  showEarlier: boolean;
  onShowEarlier: () => void;
  runs: AgentRun[];
  /** A message on its way to the server, shown at once. */
  pendingInput: string | null;
  /** Messages typed during a run, sent one by one as runs end. */
  queued?: QueuedMessage[];
  onRemoveQueued?: (id: string) => void;
  /** What to show when there is nothing to scroll. */
  empty: ReactNode;
  onOpenDiff: (target: RunDiffTarget) => void;
  /** Sends the last run's words again; offered on the last turn when it failed or was stopped. */
  onRetry?: (run: AgentRun) => void;
}) {
  const nothingToShow = runs.length === 0 && pendingInput === null;
  return (
    <StickToBottom
      className="relative flex min-h-0 flex-1 flex-col overflow-hidden"
      resize="smooth"
      initial="instant"
      data-testid="agent-conversation"
    >
      <StickToBottom.Content
        className="flex flex-col gap-6 px-4 pt-4 pb-6"
        scrollClassName="overscroll-contain"
      >
        {earlierRuns.length > 0 ? (
          showEarlier ? (
            <>
              {earlierRuns.map((run) => (
                <RunTurn key={run.id} appId={appId} run={run} onOpenDiff={onOpenDiff} />
              ))}
              <p className="flex items-center gap-3 text-[11px] font-medium text-zinc-400">
                <span className="h-px flex-1 bg-zinc-200" aria-hidden="true" />
                New conversation
                <span className="h-px flex-1 bg-zinc-200" aria-hidden="true" />
              </p>
            </>
          ) : (
            <button
              type="button"
              onClick={onShowEarlier}
              className="mx-auto cursor-pointer rounded-full px-3 py-1 text-xs text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-800"
              data-testid="agent-show-earlier"
            >
              Show {earlierRuns.length} earlier {earlierRuns.length === 1 ? "message" : "messages"}
            </button>
          )
        ) : null}
        {nothingToShow ? empty : null}
        {runs.map((run, index) => (
          <RunTurn
            key={run.id}
            appId={appId}
            run={run}
            onOpenDiff={onOpenDiff}
            onRetry={index === runs.length - 1 && pendingInput === null ? onRetry : undefined}
          />
        ))}
        {pendingInput !== null ? (
          <article className="space-y-3" data-testid="agent-turn-pending">
            <UserMessage input={pendingInput} />
            <ThinkingIndicator />
          </article>
        ) : null}
        {queued.map((message) => (
          <div key={message.id} className="space-y-1" data-testid="agent-queued">
            <div className="flex items-center gap-1.5 text-[11px] font-medium text-zinc-400">
              <Clock className="size-3" aria-hidden="true" />
              Queued — sent when the current run ends
              {onRemoveQueued ? (
                <button
                  type="button"
                  onClick={() => onRemoveQueued(message.id)}
                  className="ml-auto cursor-pointer rounded p-0.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
                  aria-label="Remove the queued message"
                  title="Remove"
                  data-testid="agent-queued-remove"
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
              ) : null}
            </div>
            <div className="opacity-70">
              <UserMessage input={message.input} />
            </div>
          </div>
        ))}
      </StickToBottom.Content>
      <ScrollToLatest />
    </StickToBottom>
  );
}

/**
 * Shown while the person is scrolled up. It takes its own row under the conversation (the
 * scrolling area gives up the height) instead of floating over it, so it can never cover an
 * error or an approval at the bottom of the view.
 */
function ScrollToLatest() {
  const { isAtBottom, scrollToBottom } = useStickToBottomContext();
  if (isAtBottom) return null;
  return (
    <div className="flex shrink-0 justify-center border-t border-zinc-100 py-1.5 animate-fade-in">
      <button
        type="button"
        onClick={() => void scrollToBottom()}
        className="inline-flex cursor-pointer items-center gap-1 rounded-full bg-white px-3 py-1 text-xs font-medium text-zinc-700 shadow-xs ring-1 ring-zinc-200 transition-colors hover:bg-zinc-50"
        data-testid="agent-scroll-to-latest"
      >
        <ArrowDown className="size-3.5" aria-hidden="true" />
        Scroll to latest
      </button>
    </div>
  );
}
