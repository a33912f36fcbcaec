"use client";

import { FolderTree, PanelLeftClose, PanelLeftOpen } from "lucide-react";
import { errorMessage } from "@/components/api-client";
import type { FileEntry } from "@/components/api-types";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { FileActions } from "./file-actions";
import { FileTree } from "./file-tree";

/** The left column: the draft's file tree, collapsible to a thin rail on small screens. */
export function FilesSidebar({
  appId,
  draftRevisionId,
  files,
  loading,
  error,
  selectedPath,
  dirtyPath,
  onSelect,
  collapsed,
  onCollapsedChange,
}: {
  appId: string;
  draftRevisionId: string | null;
  files: FileEntry[] | undefined;
  loading: boolean;
  error: unknown;
  selectedPath: string | null;
  dirtyPath: string | null;
  onSelect: (path: string) => void;
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
}) {
  if (collapsed) {
    return (
      <aside
        aria-label="Files"
        className="flex w-11 shrink-0 flex-col items-center border-r border-zinc-200 bg-zinc-50/70 py-1.5"
      >
        <Button
          size="icon"
          variant="ghost"
          onClick={() => onCollapsedChange(false)}
          aria-label="Show files"
          title="Show files"
          aria-expanded={false}
          data-testid="files-expand"
        >
          <PanelLeftOpen />
        </Button>
      </aside>
    );
  }
  return (
    <aside
      aria-label="Files"
      className="flex w-56 shrink-0 flex-col border-r border-zinc-200 bg-zinc-50/70"
    >
      <div className="flex h-10 shrink-0 items-center gap-2 border-b border-zinc-200 pr-1.5 pl-3 text-xs font-medium text-zinc-500">
        <FolderTree className="size-3.5" aria-hidden="true" />
        Files
        {files ? <span className="font-normal text-zinc-400">{files.length}</span> : null}
        <Button
          size="icon-sm"
          variant="ghost"
          className="ml-auto"
          onClick={() => onCollapsedChange(true)}
          aria-label="Hide files"
          title="Hide files"
          aria-expanded={true}
          data-testid="files-collapse"
        >
          <PanelLeftClose />
        </Button>
      </div>
      <FileActions
        appId={appId}
        draftRevisionId={draftRevisionId}
        selectedPath={selectedPath}
        onOpen={onSelect}
      />
      <div className="min-h-0 flex-1 overflow-y-auto px-1.5">
        {loading ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading files" />
          </div>
        ) : error ? (
          <p role="alert" className="p-3 text-xs text-rose-600">
            {errorMessage(error)}
          </p>
        ) : (
          <FileTree
            files={files ?? []}
            selectedPath={selectedPath}
            onSelect={onSelect}
            dirtyPath={dirtyPath}
          />
        )}
      </div>
    </aside>
  );
}
