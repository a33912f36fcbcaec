"use client";

import { useQuery } from "@tanstack/react-query";
import { Flag, History, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { errorMessage } from "@/components/api-client";
import type { Checkpoint } from "@/components/api-types";
import { checkpointTitle } from "@/components/history/history-selection";
import { CheckpointKindBadge } from "@/components/history/revision-source-badge";
import { checkpointsQuery } from "@/components/queries";
import { RelativeTime } from "@/components/relative-time";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

/**
 * The app's checkpoints, newest first, over the conversation: kind, when, the run's first
 * words, and Restore (confirmed by the caller's dialog).
 */
export function CheckpointsPopover({
  appId,
  restoreDisabledReason,
  onRestore,
  onClose,
}: {
  appId: string;
  /** Set while a run works: restoring under it would be overwritten by its revision. */
  restoreDisabledReason: string | null;
  onRestore: (checkpoint: Checkpoint) => void;
  onClose: () => void;
}) {
  const checkpoints = useQuery(checkpointsQuery(appId));
  const headingId = useId();
  const rootReference = useRef<HTMLDivElement>(null);

  useEffect(() => {
    rootReference.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      // An open confirmation dialog handles its own Escape.
      if (event.key === "Escape" && !document.querySelector("dialog[open]")) onClose();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [onClose]);

  const list = [...(checkpoints.data ?? [])].sort((left, right) =>
    right.created_at.localeCompare(left.created_at),
  );

  return (
    <div
      ref={rootReference}
      role="dialog"
      aria-labelledby={headingId}
      tabIndex={-1}
      className="absolute inset-x-2 top-2 z-30 flex max-h-[calc(100%-1rem)] min-h-0 flex-col overflow-hidden rounded-xl bg-white shadow-xl ring-1 ring-zinc-200 outline-none animate-fade-in"
      data-testid="agent-checkpoints"
    >
      <div className="flex h-10 shrink-0 items-center gap-2 border-b border-zinc-100 pr-1.5 pl-3">
        <History className="size-3.5 text-zinc-400" aria-hidden="true" />
        <h2 id={headingId} className="text-xs font-semibold text-zinc-700">
          Checkpoints
        </h2>
        <Button
          variant="ghost"
          size="icon-sm"
          className="ml-auto"
          aria-label="Close checkpoints"
          onClick={onClose}
        >
          <X />
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {checkpoints.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading checkpoints" />
          </div>
        ) : checkpoints.isError ? (
          <p role="alert" className="p-4 text-xs text-rose-600">
            {errorMessage(checkpoints.error)}
          </p>
        ) : list.length === 0 ? (
          <div className="flex flex-col items-center px-6 py-10 text-center">
            <Flag className="size-5 text-zinc-300" aria-hidden="true" />
            <p className="mt-2 text-sm font-medium text-zinc-700">No checkpoints yet</p>
            <p className="mt-1 text-xs leading-relaxed text-zinc-500">
              One is saved before and after every agent run.
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-zinc-100" data-testid="agent-checkpoint-list">
            {list.map((checkpoint) => (
              <li
                key={checkpoint.id}
                className="flex items-start gap-3 px-3 py-2.5"
                data-testid="agent-checkpoint"
                data-kind={checkpoint.kind}
                data-run-id={checkpoint.run_id ?? ""}
              >
                <div className="min-w-0 flex-1">
                  <div className="flex items-center gap-2">
                    <CheckpointKindBadge kind={checkpoint.kind} />
                    <RelativeTime
                      value={checkpoint.created_at}
                      className="text-[11px] text-zinc-400"
                    />
                  </div>
                  <p className="mt-1 line-clamp-2 text-[13px] leading-snug text-zinc-700">
                    {checkpointTitle(checkpoint)}
                  </p>
                </div>
                <Button
                  size="sm"
                  disabled={restoreDisabledReason !== null}
                  title={restoreDisabledReason ?? undefined}
                  onClick={() => onRestore(checkpoint)}
                  data-testid="agent-checkpoint-restore"
                >
                  Restore
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
