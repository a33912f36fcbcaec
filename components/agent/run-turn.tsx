"use client";

import { CircleAlert, RotateCcw } from "lucide-react";
import { memo, useCallback, useRef } from "react";
import { useStickToBottomContext } from "use-stick-to-bottom";
import { type AgentRun, isActiveRun } from "./agent-api-types";
import { formatUsage } from "./format-usage";
import { MarkdownMessage } from "./markdown-message";
import type { RunDiffTarget } from "./run-diff-dialog";
import type { RunRevision } from "./run-event-reducer";
import { RunReply } from "./run-reply";
import { useNearViewport } from "./use-near-viewport";
import { useRunEvents } from "./use-run-events";
import { UserMessage } from "./user-message";

/**
 * One turn of the conversation: what the person asked and the run that answered, rendered from
 * the run's events. An active run streams at once; a finished one far up the history shows
 * its stored reply until it scrolls near, then replays its events for the tool rows.
 */
export const RunTurn = memo(function RunTurn({
  appId,
  run,
  onOpenDiff,
  onRetry,
}: {
  appId: string;
  run: AgentRun;
  onOpenDiff: (target: RunDiffTarget) => void;
  /** Offered when this turn ended failed or stopped: sends the same words again. */
  onRetry?: (run: AgentRun) => void;
}) {
  const active = isActiveRun(run);
  const turnReference = useRef<HTMLElement>(null);
  const { scrollRef } = useStickToBottomContext();
  const near = useNearViewport(turnReference, scrollRef);
  // Pinned at mount: a run that was active when first seen keeps driving the workspace.
  const liveReference = useRef(active);
  const { view } = useRunEvents({
    appId,
    runId: run.id,
    enabled: active || near,
    live: liveReference.current,
  });
  const hasEvents = view.lastSeq > 0;
  const replyActive = view.phase === "waiting" || view.phase === "running";

  const revision = view.revision;
  const openDiff = useCallback(
    (paths?: string[], which: RunRevision | null = revision) => {
      if (!which) return;
      onOpenDiff({
        revisionId: which.revisionId,
        parentRevisionId: which.parentRevisionId,
        focusPath: paths?.[0],
        title: `Changes from “${firstWords(run.input)}”`,
      });
    },
    [revision, run.input, onOpenDiff],
  );

  return (
    <article
      ref={turnReference}
      className="space-y-3"
      data-testid="agent-turn"
      data-run-id={run.id}
      data-status={hasEvents ? view.phase : run.status}
      aria-label={`Turn: ${firstWords(run.input)}`}
    >
      <UserMessage input={run.input} />
      <div aria-live={replyActive && hasEvents ? "polite" : undefined} aria-atomic="false">
        {hasEvents || active ? (
          <RunReply
            appId={appId}
            view={view}
            startedAt={run.started_at ?? run.created_at}
            onOpenDiff={openDiff}
          />
        ) : (
          <StoredReply run={run} />
        )}
      </div>
      {onRetry &&
      (hasEvents ? view.phase : run.status) !== "completed" &&
      !isActiveRun(run) &&
      !replyActive ? (
        <button
          type="button"
          onClick={() => onRetry(run)}
          className="inline-flex cursor-pointer items-center gap-1.5 rounded-md border border-zinc-200 px-2.5 py-1 text-xs text-zinc-700 transition-colors hover:bg-zinc-50"
          data-testid="agent-retry"
        >
          <RotateCcw className="size-3.5" aria-hidden="true" />
          Retry
        </button>
      ) : null}
    </article>
  );
});

/** A finished run before its events load: the reply text the server kept, and how it ended. */
function StoredReply({ run }: { run: AgentRun }) {
  return (
    <div className="space-y-2" data-testid="agent-reply" data-phase={run.status}>
      {run.output_text ? <MarkdownMessage text={run.output_text} streaming={false} /> : null}
      {run.status === "failed" && run.error_message ? (
        <p className="flex items-start gap-1.5 rounded-md bg-rose-50 px-2.5 py-2 text-xs text-rose-700">
          <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          {run.error_message}
        </p>
      ) : null}
      {run.usage ? (
        <p className="text-[11px] text-zinc-400 tabular-nums">{formatUsage(run.usage)}</p>
      ) : null}
    </div>
  );
}

function firstWords(text: string, length = 60): string {
  const line = text.split("\n")[0].trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}
