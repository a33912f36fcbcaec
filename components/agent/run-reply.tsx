"use client";

import { CircleAlert, CircleSlash, FileCheck2, GitMerge, Info, TriangleAlert } from "lucide-react";
import { useMemo } from "react";
import { RateLimitWait } from "./rate-limit-wait";
import { ApprovalCard } from "./approval-card";
import { FilesChangedChip } from "./files-changed-chip";
import { formatUsage } from "./format-usage";
import { MarkdownMessage } from "./markdown-message";
import type { NoticeItem, RunRevision, RunView } from "./run-event-reducer";
import { ThinkingIndicator } from "./thinking-indicator";
import { ToolCallRow } from "./tool-call-row";

/**
 * The agent's side of one turn, rendered only from the reducer's view: paragraphs of streamed
 * markdown with a compact row per tool call between them, then how the run ended, the files it
 * changed and what it cost. Lifecycle events have no rendering of their own.
 */
export function RunReply({
  appId,
  view,
  startedAt,
  onOpenDiff,
}: {
  /** For answering approval cards; absent where the reply is only shown (tests, history). */
  appId?: string;
  view: RunView;
  /** When the run started (ISO), for the elapsed seconds beside "Thinking…". */
  startedAt?: string | null;
  /** Opens the run's diff (or the given revision of it), scrolled to the given files. */
  onOpenDiff: (paths?: string[], revision?: RunRevision) => void;
}) {
  const active = view.phase === "waiting" || view.phase === "running";
  const last = view.items.at(-1);
  const toolRunning = view.items.some((item) => item.kind === "tool" && item.status === "running");
  const hasRevision = view.revision !== null;
  // Stable, so the memoised rows of a long run do not all re-render on every streamed frame.
  const openDiff = useMemo(
    () => (hasRevision ? (paths: string[]) => onOpenDiff(paths) : undefined),
    [hasRevision, onOpenDiff],
  );

  return (
    <div className="space-y-2" data-testid="agent-reply" data-phase={view.phase}>
      {view.items.map((item) =>
        item.kind === "text" ? (
          <MarkdownMessage key={item.id} text={item.text} streaming={active && item === last} />
        ) : item.kind === "approval" ? (
          <ApprovalCard key={item.approvalId} appId={appId ?? ""} runId={view.runId} item={item} />
        ) : item.kind === "notice" ? (
          <NoticeRow
            key={item.id}
            item={item}
            runRevision={
              item.conflict
                ? view.revisions.find(
                    (revision) => revision.revisionId === item.conflict?.runRevisionId,
                  )
                : undefined
            }
            onOpenDiff={onOpenDiff}
          />
        ) : (
          <ToolCallRow key={item.callId} item={item} onOpenDiff={openDiff} />
        ),
      )}
      {active && view.pausedUntil ? (
        <RateLimitWait appId={appId} runId={view.runId} until={view.pausedUntil} />
      ) : active && (view.items.length === 0 || (last?.kind === "tool" && !toolRunning)) ? (
        <ThinkingIndicator since={startedAt ? Date.parse(startedAt) : undefined} />
      ) : null}
      {view.phase === "failed" && view.failure ? (
        <p
          className="flex items-start gap-1.5 rounded-md bg-rose-50 px-2.5 py-2 text-xs text-rose-700"
          role="alert"
          data-testid="agent-run-failed"
        >
          <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          {view.failure.message}
        </p>
      ) : null}
      {view.phase === "cancelled" ? (
        <p
          className="flex items-center gap-1.5 text-xs text-zinc-500"
          data-testid="agent-run-cancelled"
        >
          <CircleSlash className="size-3.5 shrink-0 text-zinc-400" aria-hidden="true" />
          {view.cancelMessage ?? "Stopped."}
        </p>
      ) : null}
      {view.phase === "completed" && view.revisions.length === 0 ? (
        <p
          className="flex items-center gap-1.5 text-xs text-zinc-500"
          data-testid="agent-no-changes"
        >
          <FileCheck2 className="size-3.5 shrink-0 text-zinc-400" aria-hidden="true" />
          No files changed, so there is no new checkpoint.
        </p>
      ) : null}
      {view.revision || (view.usage && !active) ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pt-0.5">
          {view.revision ? (
            <FilesChangedChip revision={view.revision} onOpen={() => onOpenDiff()} />
          ) : null}
          {view.usage && !active ? (
            <span
              className="text-[11px] text-zinc-400 tabular-nums"
              title={view.resolvedModelId ?? undefined}
              data-testid="agent-usage"
            >
              {formatUsage(view.usage)}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A notice where it happened. A merge conflict names the files and opens the agent's own
 * version, which landed as a revision beside the draft.
 */
function NoticeRow({
  item,
  runRevision,
  onOpenDiff,
}: {
  item: NoticeItem;
  runRevision?: RunRevision;
  onOpenDiff: (paths?: string[], revision?: RunRevision) => void;
}) {
  if (item.conflict) {
    const files = item.conflict.files;
    return (
      <div
        className="space-y-1.5 rounded-md border border-amber-200 bg-amber-50 px-2.5 py-2 text-xs text-amber-900"
        role="status"
        data-testid="agent-notice"
        data-kind={item.noticeKind}
      >
        <p className="flex items-start gap-1.5">
          <GitMerge className="mt-px size-3.5 shrink-0 text-amber-600" aria-hidden="true" />
          <span>{item.message}</span>
        </p>
        <ul className="flex flex-wrap gap-1 pl-5" aria-label="Conflicting files">
          {files.map((file) => (
            <li key={file}>
              <code className="rounded bg-amber-100 px-1 py-px font-mono text-[11px]">{file}</code>
            </li>
          ))}
        </ul>
        {runRevision ? (
          <button
            type="button"
            className="ml-5 cursor-pointer font-medium underline underline-offset-2 hover:text-amber-950"
            onClick={() => onOpenDiff(files, runRevision)}
            data-testid="agent-conflict-open"
          >
            Open the agent’s version
          </button>
        ) : null}
      </div>
    );
  }
  const Icon = item.noticeKind === "loop_warning" ? TriangleAlert : Info;
  return (
    <p
      className="flex items-start gap-1.5 text-xs text-zinc-500"
      data-testid="agent-notice"
      data-kind={item.noticeKind}
    >
      <Icon className="mt-px size-3.5 shrink-0 text-zinc-400" aria-hidden="true" />
      {item.message}
    </p>
  );
}
