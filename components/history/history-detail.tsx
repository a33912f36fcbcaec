"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { History, RotateCcw } from "lucide-react";
import { type ReactNode, useState } from "react";
import { apiClient, errorMessage } from "@/components/api-client";
import type { Revision } from "@/components/api-types";
import { DiffView } from "@/components/diff";
import { applyDraftHead, diffQuery } from "@/components/queries";
import { RelativeTime } from "@/components/relative-time";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { Spinner } from "@/components/ui/spinner";

/** The revision or checkpoint the drawer shows, reduced to what the detail pane needs. */
export interface HistoryEntry {
  kind: "revision" | "checkpoint";
  id: string;
  revisionId: string;
  title: string;
  createdAt: string;
  badge: ReactNode;
}

type DiffBase = "parent" | "draft";

/** One history entry: what it changed (or how it differs from now), and Restore. */
export function HistoryDetail({
  appId,
  entry,
  draftRevisionId,
  onRestored,
}: {
  appId: string;
  entry: HistoryEntry;
  draftRevisionId: string | null;
  onRestored: (revision: Revision) => void;
}) {
  const queryClient = useQueryClient();
  const isHead = entry.revisionId === draftRevisionId;
  const [base, setBase] = useState<DiffBase>(entry.kind === "checkpoint" ? "draft" : "parent");
  const effectiveBase: DiffBase = isHead ? "parent" : base;
  const against = effectiveBase === "draft" ? draftRevisionId : null;
  const diff = useQuery(diffQuery(appId, entry.revisionId, against));
  const [confirming, setConfirming] = useState(false);

  const restore = useMutation({
    mutationFn: async () =>
      entry.kind === "checkpoint"
        ? (await apiClient.restoreCheckpoint(appId, entry.id)).revision
        : (await apiClient.restoreRevision(appId, entry.id)).revision,
    onSuccess: async (revision) => {
      setConfirming(false);
      await applyDraftHead(queryClient, appId, revision.id);
      onRestored(revision);
    },
  });

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="history-detail">
      <div className="flex shrink-0 items-start gap-4 border-b border-zinc-200 px-6 py-4">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">{entry.badge}</div>
          <h3
            className="mt-1.5 text-base font-semibold tracking-tight text-zinc-900"
            data-testid="history-detail-title"
          >
            {entry.title}
          </h3>
          <p className="mt-0.5 text-xs text-zinc-500">
            <RelativeTime value={entry.createdAt} />
            <span aria-hidden="true"> · </span>
            <span className="font-mono">{entry.revisionId.slice(0, 8)}</span>
          </p>
        </div>
        <Button
          variant={isHead ? "secondary" : "primary"}
          disabled={isHead || restore.isPending}
          onClick={() => {
            restore.reset();
            setConfirming(true);
          }}
          title={isHead ? "This is already the current draft" : undefined}
          data-testid="restore-button"
        >
          <RotateCcw />
          {isHead ? "Current draft" : "Restore"}
        </Button>
      </div>

      <div className="flex shrink-0 items-center gap-3 px-6 pt-4">
        {isHead ? (
          <p className="text-xs font-medium text-zinc-600">Changes in this version</p>
        ) : (
          <SegmentedControl<DiffBase>
            label="Compare"
            value={effectiveBase}
            onChange={setBase}
            options={[
              { value: "parent", label: "Changes in this version", testId: "diff-base-parent" },
              { value: "draft", label: "Compared with current draft", testId: "diff-base-draft" },
            ]}
          />
        )}
        {diff.isFetching && diff.data ? <Spinner className="size-3.5" /> : null}
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto px-6 pt-3 pb-8">
        {diff.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label="Loading changes" />
          </div>
        ) : diff.isError ? (
          <p role="alert" className="rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-700">
            Couldn’t load the changes. {errorMessage(diff.error)}
          </p>
        ) : (
          <DiffView diff={diff.data} />
        )}
      </div>

      <ConfirmDialog
        open={confirming}
        title="Restore this version?"
        description={
          <>
            <p>
              The draft will go back to the files of{" "}
              <strong className="font-medium text-zinc-800">{entry.title}</strong>.
            </p>
            <p className="mt-2 flex items-start gap-2 text-zinc-500">
              <History className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              This adds a new revision; nothing in the history is deleted, so you can come back to
              the current draft at any time.
            </p>
          </>
        }
        confirmLabel="Restore"
        pending={restore.isPending}
        error={restore.isError ? errorMessage(restore.error) : null}
        onConfirm={() => restore.mutate()}
        onCancel={() => setConfirming(false)}
        data-testid="restore-dialog"
      />
    </div>
  );
}
