"use client";

import type { RevisionDiff } from "@/components/api-types";
import { cn } from "@/components/ui/class-names";
import { DiffFile } from "./diff-file";
import { DiffStat } from "./diff-stat";

/**
 * A whole diff between two revisions: a summary line, then every changed file with its
 * highlighted unified diff. Shared by the history drawer and the agent panel.
 */
export function DiffView({ diff, className }: { diff: RevisionDiff; className?: string }) {
  const count = diff.files.length;
  return (
    <div className={cn("space-y-3", className)} data-testid="diff-view">
      <div className="flex items-center gap-3 text-xs text-zinc-500">
        <span data-testid="diff-file-count">
          {count === 0 ? "No changes" : `${count} ${count === 1 ? "file" : "files"} changed`}
        </span>
        {count > 0 ? <DiffStat additions={diff.additions} deletions={diff.deletions} /> : null}
      </div>
      {diff.files.map((file) => (
        <DiffFile key={file.path} file={file} />
      ))}
    </div>
  );
}
