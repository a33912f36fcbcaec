"use client";

import { Flag } from "lucide-react";
import type { Checkpoint } from "@/components/api-types";
import { RelativeTime } from "@/components/relative-time";
import { cn } from "@/components/ui/class-names";
import { checkpointTitle } from "./history-selection";
import { CheckpointKindBadge } from "./revision-source-badge";

/** Checkpoints — named points the agent (or a person) set aside to come back to. */
export function CheckpointList({
  checkpoints,
  selectedId,
  onSelect,
}: {
  checkpoints: Checkpoint[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  if (checkpoints.length === 0) {
    return (
      <div
        className="flex flex-col items-center px-6 py-12 text-center"
        data-testid="checkpoints-empty"
      >
        <Flag className="size-5 text-zinc-300" aria-hidden="true" />
        <p className="mt-3 text-sm font-medium text-zinc-700">No checkpoints yet</p>
        <p className="mt-1 text-xs leading-relaxed text-zinc-500">
          A checkpoint is saved before and after every agent run, so you can always go back.
        </p>
      </div>
    );
  }
  return (
    <ul className="space-y-0.5 p-2" data-testid="checkpoint-list">
      {checkpoints.map((checkpoint) => {
        const selected = checkpoint.id === selectedId;
        return (
          <li key={checkpoint.id}>
            <button
              type="button"
              onClick={() => onSelect(checkpoint.id)}
              aria-current={selected ? "true" : undefined}
              className={cn(
                "w-full cursor-pointer rounded-lg px-3 py-2.5 text-left transition-colors",
                selected ? "bg-white shadow-xs ring-1 ring-zinc-200" : "hover:bg-zinc-100/80",
              )}
              data-testid="checkpoint-item"
              data-checkpoint-id={checkpoint.id}
            >
              <CheckpointKindBadge kind={checkpoint.kind} />
              <p className="mt-1.5 line-clamp-2 text-[13px] leading-snug text-zinc-800">
                {checkpointTitle(checkpoint)}
              </p>
              <p className="mt-1 text-xs text-zinc-500">
                <RelativeTime value={checkpoint.created_at} />
              </p>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
