"use client";

import { ChevronRight, CircleSlash, X } from "lucide-react";
import { memo, useId, useState } from "react";
import { DiffStat } from "@/components/diff/diff-stat";
import { cn } from "@/components/ui/class-names";
import type { ToolCallItem } from "./run-event-reducer";
import { ShimmerText } from "./shimmer-text";
import { ToolCallDetails } from "./tool-call-details";
import { formatDuration, isEditingTool, runningToolTitle, toolIcon } from "./tool-presentation";

const statusLabel = {
  running: "running",
  completed: "done",
  failed: "failed",
  interrupted: "stopped",
} as const;

/**
 * One compact row per tool call: icon, human title, +N −M for edits, duration. Running rows
 * shimmer; failed rows say why in one line. A completed edit opens the run's diff when there is
 * one; otherwise the row expands to readable details.
 */
export const ToolCallRow = memo(function ToolCallRow({
  item,
  onOpenDiff,
}: {
  item: ToolCallItem;
  /** Opens the run's diff at these files; absent until the run's revision exists. */
  onOpenDiff?: (paths: string[]) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  const Icon = toolIcon(item.tool);
  const running = item.status === "running";
  const failed = item.status === "failed";
  const opensDiff = item.status === "completed" && isEditingTool(item.tool) && !!onOpenDiff;
  const expandable = !running && !opensDiff;
  const title = running ? runningToolTitle(item.title) : item.title;
  const showStat =
    item.additions !== null && item.deletions !== null && item.status === "completed";

  const content = (
    <>
      <Icon
        className={cn("size-3.5 shrink-0", failed ? "text-rose-500" : "text-zinc-400")}
        aria-hidden="true"
      />
      <span className="min-w-0 truncate" title={item.title}>
        <ShimmerText active={running}>{title}</ShimmerText>
      </span>
      {showStat ? (
        <DiffStat additions={item.additions ?? 0} deletions={item.deletions ?? 0} />
      ) : null}
      {failed ? <X className="size-3.5 shrink-0 text-rose-500" aria-hidden="true" /> : null}
      {item.status === "interrupted" ? (
        <CircleSlash className="size-3 shrink-0 text-zinc-400" aria-hidden="true" />
      ) : null}
      <span className="sr-only">, {statusLabel[item.status]}</span>
      <span className="ml-auto flex shrink-0 items-center gap-1 pl-2 text-[11px] text-zinc-400 tabular-nums">
        {item.durationMs !== null && !running ? formatDuration(item.durationMs) : null}
        {expandable ? (
          <ChevronRight
            className={cn(
              "size-3 opacity-0 transition group-hover/row:opacity-100 group-focus-visible/row:opacity-100",
              expanded && "rotate-90 opacity-100",
            )}
            aria-hidden="true"
          />
        ) : null}
      </span>
    </>
  );

  const rowClassName =
    "group/row flex w-full min-w-0 items-center gap-2 rounded-md px-1.5 py-1 text-left text-[13px] text-zinc-600";

  return (
    <div
      className="-mx-1.5"
      data-testid="agent-tool-row"
      data-tool={item.tool}
      data-status={item.status}
      data-call-id={item.callId}
    >
      {running ? (
        <div className={rowClassName} aria-busy="true">
          {content}
        </div>
      ) : (
        <button
          type="button"
          className={cn(rowClassName, "cursor-pointer hover:bg-zinc-100/80 hover:text-zinc-900")}
          aria-expanded={expandable ? expanded : undefined}
          aria-controls={expandable && expanded ? detailsId : undefined}
          aria-haspopup={opensDiff ? "dialog" : undefined}
          title={opensDiff ? "Open the diff" : undefined}
          onClick={() => {
            if (opensDiff) onOpenDiff?.(item.files);
            else setExpanded((value) => !value);
          }}
        >
          {content}
        </button>
      )}
      {failed && item.failure ? (
        <p
          className="truncate pr-1.5 pl-7 text-xs text-rose-600"
          title={item.failure.message}
          data-testid="agent-tool-row-reason"
        >
          {item.failure.message}
        </p>
      ) : null}
      {typeof item.details.screenshot === "string" &&
      item.details.screenshot.startsWith("data:image/jpeg;base64,") ? (
        // biome-ignore lint/performance/noImgElement: a data URL from the run's own event, no optimisation to gain
        <img
          src={item.details.screenshot}
          alt="The app as the check saw it"
          className="mt-1 mb-1 ml-7 w-44 rounded-md border border-zinc-200 shadow-xs"
          data-testid="agent-check-screenshot"
        />
      ) : null}
      {expandable && expanded ? <ToolCallDetails id={detailsId} item={item} /> : null}
    </div>
  );
});
