"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { AgentPanel } from "@/components/agent";
import { errorMessage, isApiError } from "@/components/api-client";
import { HistoryDrawer } from "@/components/history/history-drawer";
import { appQuery, filesQuery } from "@/components/queries";
import { cn } from "@/components/ui/class-names";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ResizeHandle } from "@/components/ui/resize-handle";
import { Spinner } from "@/components/ui/spinner";
import { useMediaQuery } from "@/components/use-media-query";
import { CodePane } from "./code-pane";
import type { RevealedLine } from "./code-viewer";
import { type EditSession, isDirty } from "./edit-session";
import { FilesSidebar } from "./files-sidebar";
import { PreviewPane } from "./preview-pane";
import { type CompactTab, WorkspaceHeader, type WorkspaceLayout } from "./workspace-header";

/**
 * Below this width files, code, preview and the agent side by side would leave each a sliver
 * (a 190 px preview at 1024 px), so the workspace shows one of them at a time, as tabs.
 */
const compactQuery = "(max-width: 1199px)";

/** The file shown first: the app's main component when there is one. */
const preferredFirstFile = "src/App.tsx";

type PendingDiscard = { kind: "open"; path: string } | { kind: "stop" };

/**
 * The builder for one app, in a viewport-tall shell whose panes scroll on their own: files on
 * the left, code and preview in the middle, and room on the right for the agent panel.
 */
export function Workspace({ appId }: { appId: string }) {
  const app = useQuery(appQuery(appId));
  const draftRevisionId = app.data?.draft_revision_id ?? null;
  const files = useQuery({
    ...filesQuery(appId, draftRevisionId),
    enabled: !!draftRevisionId,
    // While the next revision's tree loads, keep showing the last one instead of a spinner.
    placeholderData: keepPreviousData,
  });

  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  const [session, setSession] = useState<EditSession | null>(null);
  const [pendingDiscard, setPendingDiscard] = useState<PendingDiscard | null>(null);
  const [layout, setLayout] = useState<WorkspaceLayout>("split");
  const [codeFraction, setCodeFraction] = useState(0.5);
  const [resizing, setResizing] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [filesCollapsed, setFilesCollapsed] = useState(false);
  const [revealed, setRevealed] = useState<(RevealedLine & { path: string }) | null>(null);
  const compact = useMediaQuery(compactQuery);
  const [tab, setTab] = useState<CompactTab>("agent");
  const [agentRequest, setAgentRequest] = useState<{ id: number; text: string } | null>(null);
  const fixWithAgent = (text: string) => {
    setAgentRequest({ id: Date.now(), text });
    if (compact) setTab("agent");
  };

  const fileList = files.data?.files ?? [];
  const path =
    selectedPath ??
    fileList.find((file) => file.path === preferredFirstFile)?.path ??
    fileList[0]?.path ??
    null;
  const pathExists = !files.data || fileList.some((file) => file.path === path);
  const dirty = isDirty(session);

  // The draft moved on (a restore, an agent run) under an editor with nothing unsaved: close it,
  // so the viewer shows the file as it is now instead of a stale copy.
  useEffect(() => {
    if (
      session &&
      !isDirty(session) &&
      draftRevisionId &&
      session.baseRevisionId !== draftRevisionId
    ) {
      setSession(null);
    }
  }, [session, draftRevisionId]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const openFile = (next: string, line?: number) => {
    if (layout === "preview") setLayout("split");
    if (compact) setTab("code");
    setRevealed(line ? { path: next, line, requestedAt: Date.now() } : null);
    if (next === path) return;
    if (dirty) return setPendingDiscard({ kind: "open", path: next });
    setSession(null);
    setSelectedPath(next);
  };

  const stopEditing = () => {
    if (dirty) setPendingDiscard({ kind: "stop" });
    else setSession(null);
  };

  const discard = () => {
    if (pendingDiscard?.kind === "open") setSelectedPath(pendingDiscard.path);
    setSession(null);
    setPendingDiscard(null);
  };

  if (app.isPending) {
    return (
      <div className="flex h-dvh items-center justify-center">
        <Spinner label="Opening the app" className="size-5" />
      </div>
    );
  }

  if (app.isError) {
    const missing =
      isApiError(app.error, "NOT_FOUND") || isApiError(app.error, "VALIDATION_FAILED");
    return (
      <div
        className="flex h-dvh flex-col items-center justify-center px-6 text-center"
        data-testid="workspace-error"
      >
        <h1 className="text-lg font-semibold">
          {missing ? "App not found" : "Couldn’t open this app"}
        </h1>
        <p className="mt-1 max-w-sm text-sm text-zinc-500">
          {missing ? "It may have been deleted, or the link is wrong." : errorMessage(app.error)}
        </p>
        <Link
          href="/"
          className="mt-6 inline-flex items-center gap-1.5 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm font-medium shadow-xs hover:bg-zinc-50"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          All apps
        </Link>
      </div>
    );
  }

  // Every pane stays mounted when hidden: the editor keeps its edits, the agent its stream.
  const showFiles = compact ? tab === "code" : true;
  const showCode = compact ? tab === "code" : layout !== "preview";
  const showPreview = compact ? tab === "preview" : layout !== "code";
  const showAgent = compact ? tab === "agent" : true;

  return (
    <div className="flex h-dvh min-h-0 flex-col overflow-hidden" data-testid="workspace">
      <WorkspaceHeader
        app={app.data}
        layout={layout}
        onLayoutChange={setLayout}
        compactTab={compact ? tab : null}
        onCompactTabChange={setTab}
        onOpenHistory={() => setHistoryOpen(true)}
      />
      <div className="flex min-h-0 flex-1">
        <div className={showFiles ? "contents" : "hidden"}>
          <FilesSidebar
            appId={appId}
            draftRevisionId={draftRevisionId}
            files={files.data?.files}
            loading={files.isPending}
            error={files.error}
            selectedPath={path}
            dirtyPath={dirty ? (session?.path ?? null) : null}
            onSelect={(next) => openFile(next)}
            collapsed={filesCollapsed}
            onCollapsedChange={setFilesCollapsed}
          />
        </div>

        <main
          className={cn(
            "flex min-h-0 min-w-0 flex-1",
            !showCode && !showPreview && "hidden",
            resizing && "cursor-col-resize select-none [&_iframe]:pointer-events-none",
          )}
        >
          <div
            className={cn(
              "min-h-0 min-w-0",
              showCode ? "flex" : "hidden",
              showPreview ? "shrink-0" : "flex-1",
            )}
            style={showCode && showPreview ? { width: `${codeFraction * 100}%` } : undefined}
          >
            <CodePane
              appId={appId}
              draftRevisionId={draftRevisionId}
              path={path}
              pathExists={pathExists}
              session={session}
              onSessionChange={setSession}
              onRequestStopEditing={stopEditing}
              revealedLine={revealed?.path === path ? revealed : null}
            />
          </div>
          {showCode && showPreview ? (
            <ResizeHandle
              label="Resize code and preview"
              value={codeFraction}
              onChange={setCodeFraction}
              onDraggingChange={setResizing}
            />
          ) : null}
          <div className={cn("min-h-0 min-w-0 flex-1", showPreview ? "flex" : "hidden")}>
            <PreviewPane
              appId={appId}
              draftRevisionId={draftRevisionId}
              onOpenFile={openFile}
              onFixWithAgent={fixWithAgent}
            />
          </div>
        </main>

        <AgentPanel
          appId={appId}
          request={agentRequest}
          className={cn(compact && "w-auto flex-1 border-l-0", !showAgent && "hidden")}
        />
      </div>

      <HistoryDrawer app={app.data} open={historyOpen} onClose={() => setHistoryOpen(false)} />
      <ConfirmDialog
        open={pendingDiscard !== null}
        title="Discard unsaved changes?"
        description={`Your edits to ${session?.path ?? "this file"} haven’t been saved and will be lost.`}
        confirmLabel="Discard changes"
        tone="danger"
        onConfirm={discard}
        onCancel={() => setPendingDiscard(null)}
        data-testid="discard-dialog"
      />
    </div>
  );
}
