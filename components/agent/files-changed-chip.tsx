import { FileDiff } from "lucide-react";
import { DiffStat } from "@/components/diff/diff-stat";
import type { RunRevision } from "./run-event-reducer";

/** "2 files changed +12 −3" under a reply; opens the run's diff. */
export function FilesChangedChip({
  revision,
  onOpen,
}: {
  revision: RunRevision;
  onOpen: () => void;
}) {
  const count = revision.files.length;
  return (
    <button
      type="button"
      className="inline-flex cursor-pointer items-center gap-2 rounded-full bg-zinc-100 px-2.5 py-1 text-xs font-medium text-zinc-700 transition-colors hover:bg-zinc-200/80 hover:text-zinc-900"
      aria-haspopup="dialog"
      onClick={onOpen}
      data-testid="agent-files-changed"
    >
      <FileDiff className="size-3.5 text-zinc-500" aria-hidden="true" />
      <span>
        {count} {count === 1 ? "file" : "files"} changed
      </span>
      <DiffStat additions={revision.additions} deletions={revision.deletions} />
    </button>
  );
}
