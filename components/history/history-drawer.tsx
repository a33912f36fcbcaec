"use client";

import { useQuery } from "@tanstack/react-query";
import { GitCommitVertical, X } from "lucide-react";
import { useId, useState } from "react";
import { errorMessage } from "@/components/api-client";
import type { App } from "@/components/api-types";
import { checkpointsQuery, revisionsQuery } from "@/components/queries";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { Spinner } from "@/components/ui/spinner";
import { CheckpointList } from "./checkpoint-list";
import { HistoryDetail, type HistoryEntry } from "./history-detail";
import { checkpointTitle, type HistorySelection, revisionTitle } from "./history-selection";
import { RevisionList } from "./revision-list";
import { CheckpointKindBadge, RevisionSourceBadge } from "./revision-source-badge";

type Tab = "revisions" | "checkpoints";

/** A drawer over the workspace: every revision and checkpoint, each one's diff, and Restore. */
export function HistoryDrawer({
  app,
  open,
  onClose,
}: {
  app: App;
  open: boolean;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      className="my-0 mr-0 ml-auto h-dvh max-h-none w-[min(68rem,100vw)] max-w-none rounded-none border-y-0 border-r-0 open:animate-drawer-in"
      data-testid="history-drawer"
    >
      <HistoryDrawerContent app={app} titleId={titleId} onClose={onClose} />
    </Dialog>
  );
}

function HistoryDrawerContent({
  app,
  titleId,
  onClose,
}: {
  app: App;
  titleId: string;
  onClose: () => void;
}) {
  const revisions = useQuery(revisionsQuery(app.id));
  const checkpoints = useQuery(checkpointsQuery(app.id));
  const [tab, setTab] = useState<Tab>("revisions");
  const [selection, setSelection] = useState<HistorySelection | null>(null);

  const revisionList = revisions.data?.revisions ?? [];
  const checkpointList = checkpoints.data ?? [];
  const draftRevisionId = revisions.data?.draft_revision_id ?? app.draft_revision_id;

  // With nothing chosen yet, show the newest revision.
  const effective: HistorySelection | null =
    selection ?? (revisionList[0] ? { kind: "revision", id: revisionList[0].id } : null);
  const entry = resolveEntry(effective);

  function resolveEntry(current: HistorySelection | null): HistoryEntry | null {
    if (current?.kind === "revision") {
      const revision = revisionList.find((candidate) => candidate.id === current.id);
      return revision
        ? {
            kind: "revision",
            id: revision.id,
            revisionId: revision.id,
            title: revisionTitle(revision),
            createdAt: revision.created_at,
            badge: <RevisionSourceBadge source={revision.source} />,
          }
        : null;
    }
    if (current?.kind === "checkpoint") {
      const checkpoint = checkpointList.find((candidate) => candidate.id === current.id);
      return checkpoint
        ? {
            kind: "checkpoint",
            id: checkpoint.id,
            revisionId: checkpoint.revision_id,
            title: checkpointTitle(checkpoint),
            createdAt: checkpoint.created_at,
            badge: <CheckpointKindBadge kind={checkpoint.kind} />,
          }
        : null;
    }
    return null;
  }

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="flex h-14 shrink-0 items-center gap-3 border-b border-zinc-200 px-4">
        <GitCommitVertical className="size-4 text-zinc-400" aria-hidden="true" />
        <h2 id={titleId} className="text-sm font-semibold">
          History
        </h2>
        <span className="truncate text-xs text-zinc-500">{app.name}</span>
        <Button
          size="icon"
          variant="ghost"
          className="ml-auto"
          onClick={onClose}
          aria-label="Close history"
          data-testid="history-close"
        >
          <X />
        </Button>
      </header>
      <div className="flex min-h-0 flex-1">
        <div className="flex w-80 shrink-0 flex-col border-r border-zinc-200 bg-zinc-50">
          <div className="shrink-0 px-3 pt-3">
            <SegmentedControl<Tab>
              label="Show"
              value={tab}
              onChange={setTab}
              className="w-full [&>button]:flex-1 [&>button]:justify-center"
              options={[
                {
                  value: "revisions",
                  label: `Revisions${revisions.data ? ` · ${revisionList.length}` : ""}`,
                  testId: "history-tab-revisions",
                },
                {
                  value: "checkpoints",
                  label: `Checkpoints${checkpoints.data ? ` · ${checkpointList.length}` : ""}`,
                  testId: "history-tab-checkpoints",
                },
              ]}
            />
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto">
            {tab === "revisions" ? (
              revisions.isPending ? (
                <ListLoading />
              ) : revisions.isError ? (
                <ListError message={errorMessage(revisions.error)} />
              ) : (
                <RevisionList
                  revisions={revisionList}
                  draftRevisionId={draftRevisionId}
                  publishedRevisionId={app.published_revision_id}
                  selectedId={effective?.kind === "revision" ? effective.id : null}
                  onSelect={(id) => setSelection({ kind: "revision", id })}
                />
              )
            ) : checkpoints.isPending ? (
              <ListLoading />
            ) : checkpoints.isError ? (
              <ListError message={errorMessage(checkpoints.error)} />
            ) : (
              <CheckpointList
                checkpoints={checkpointList}
                selectedId={effective?.kind === "checkpoint" ? effective.id : null}
                onSelect={(id) => setSelection({ kind: "checkpoint", id })}
              />
            )}
          </div>
        </div>
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          {entry ? (
            <HistoryDetail
              key={`${entry.kind}:${entry.id}`}
              appId={app.id}
              entry={entry}
              draftRevisionId={draftRevisionId}
              onRestored={(revision) => {
                setTab("revisions");
                setSelection({ kind: "revision", id: revision.id });
              }}
            />
          ) : revisions.isPending ? (
            <ListLoading />
          ) : (
            <p className="m-auto text-sm text-zinc-500">
              Choose a revision to see what it changed.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

function ListLoading() {
  return (
    <div className="flex justify-center py-12">
      <Spinner label="Loading" />
    </div>
  );
}

function ListError({ message }: { message: string }) {
  return (
    <p role="alert" className="m-3 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700">
      {message}
    </p>
  );
}
