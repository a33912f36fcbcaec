"use client";

import { Globe } from "lucide-react";
import type { Revision } from "@/components/api-types";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/class-names";
import { revisionTitle } from "./history-selection";
import { RevisionSourceBadge } from "./revision-source-badge";

/** Every revision, newest first, numbered from the oldest; the draft head says so. */
export function RevisionList({
  revisions,
  draftRevisionId,
  publishedRevisionId,
  selectedId,
  onSelect,
}: {
  revisions: Revision[];
  draftRevisionId: string | null;
  publishedRevisionId: string | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <ul className="space-y-0.5 p-2" data-testid="revision-list">
      {revisions.map((revision, index) => {
        const selected = revision.id === selectedId;
        const number = revisions.length - index;
        return (
          <li key={revision.id}>
            <button
              type="button"
              onClick={() => onSelect(revision.id)}
              aria-current={selected ? "true" : undefined}
              className={cn(
                "w-full cursor-pointer rounded-lg px-3 py-2.5 text-left transition-colors",
                selected ? "bg-white shadow-xs ring-1 ring-zinc-200" : "hover:bg-zinc-100/80",
              )}
              data-testid="revision-item"
              data-revision-id={revision.id}
              data-source={revision.source}
            >
              <div className="flex items-center gap-2">
                <span className="font-mono text-[11px] text-zinc-400 tabular-nums">#{number}</span>
                <RevisionSourceBadge source={revision.source} />
                {revision.id === draftRevisionId ? (
                  <Badge tone="indigo" data-testid="revision-current">
                    Current
                  </Badge>
                ) : null}
                {revision.id === publishedRevisionId ? (
                  <Badge tone="green">
                    <Globe className="size-3" aria-hidden="true" />
                    Live
                  </Badge>
                ) : null}
              </div>
              <p
                className="mt-1.5 line-clamp-2 text-[13px] leading-snug text-zinc-800"
                data-testid="revision-message"
              >
                {revisionTitle(revision)}
              </p>
              <p className="mt-1 text-xs text-zinc-500">
                <RelativeTime value={revision.created_at} />
                <span aria-hidden="true"> · </span>
                {revision.file_count} {revision.file_count === 1 ? "file" : "files"}
              </p>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
