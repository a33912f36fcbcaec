"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, Check, ClipboardCopy, FileQuestion, Pencil, RotateCw } from "lucide-react";
import dynamic from "next/dynamic";
import {
  type Dispatch,
  type ReactNode,
  type SetStateAction,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { errorMessage, isApiError } from "@/components/api-client";
import { appQuery, fileQuery } from "@/components/queries";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/class-names";
import { KeyboardShortcut } from "@/components/ui/keyboard-shortcut";
import { Spinner } from "@/components/ui/spinner";
import { useApplePlatform } from "@/components/use-apple-platform";
import { CodeViewer, type RevealedLine } from "./code-viewer";
import { type EditSession, isDirty } from "./edit-session";
import { FileIcon } from "./file-icon";
import { useSaveFile } from "./use-save-file";

// CodeMirror measures the DOM; it loads in the browser only, when someone starts editing.
const CodeEditor = dynamic(() => import("./code-editor"), {
  ssr: false,
  loading: () => (
    <div className="flex h-full items-center justify-center">
      <Spinner label="Loading editor" />
    </div>
  ),
});

export interface CodePaneProps {
  appId: string;
  draftRevisionId: string | null;
  path: string | null;
  /** False when the selected path is not in the draft (e.g. after a restore removed it). */
  pathExists: boolean;
  session: EditSession | null;
  onSessionChange: Dispatch<SetStateAction<EditSession | null>>;
  /** Leaving the editor; the workspace asks before discarding unsaved edits. */
  onRequestStopEditing: () => void;
  /** A line of the open file to scroll to, e.g. from a build error. */
  revealedLine?: RevealedLine | null;
}

/** The open file: highlighted when reading, CodeMirror when editing, with save and conflicts. */
export function CodePane({
  appId,
  draftRevisionId,
  path,
  pathExists,
  session,
  onSessionChange,
  onRequestStopEditing,
  revealedLine,
}: CodePaneProps) {
  const queryClient = useQueryClient();
  const applePlatform = useApplePlatform();
  const editing = session !== null && session.path === path;
  const file = useQuery({
    ...fileQuery(appId, draftRevisionId, path ?? ""),
    enabled: !!path && !!draftRevisionId && pathExists && !editing,
    // When the draft moves (a save, a restore, an agent run), keep showing this file until its
    // new version arrives rather than flashing a spinner; never another file's content.
    placeholderData: (previous) => (previous?.path === path ? previous : undefined),
  });
  const saveFile = useSaveFile(appId);
  const [savedAt, setSavedAt] = useState<{ created: boolean } | null>(null);
  const [reloading, setReloading] = useState(false);
  const [reloadError, setReloadError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const saving = useRef(false);
  const conflict = isApiError(saveFile.error, "REVISION_CONFLICT");
  const dirty = editing && isDirty(session);

  const save = useCallback(() => {
    // A ref, not isPending: a second Ctrl+S in the same tick must not send a second save.
    if (!session || saving.current) return;
    saving.current = true;
    const submitted = session;
    saveFile.mutate(submitted, {
      onSettled: () => {
        saving.current = false;
      },
      onSuccess: ({ revisionId, created }) => {
        setSavedAt({ created });
        // Typing may have continued during the request; only what was sent is now saved.
        onSessionChange((current) =>
          current && current.path === submitted.path
            ? { ...current, baseRevisionId: revisionId, original: submitted.value }
            : current,
        );
      },
    });
  }, [session, saveFile, onSessionChange]);

  useEffect(() => {
    if (!editing) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        save();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [editing, save]);

  const startEditing = () => {
    if (!file.data || file.isPlaceholderData || file.data.content === null || !path) return;
    saveFile.reset();
    setSavedAt(null);
    onSessionChange({
      path,
      baseRevisionId: file.data.revision_id,
      original: file.data.content,
      value: file.data.content,
    });
  };

  /** Drops the local edits and reopens the file as it is at the current draft head. */
  const reloadFile = async () => {
    if (!path) return;
    setReloading(true);
    setReloadError(null);
    try {
      const app = await queryClient.fetchQuery({ ...appQuery(appId), staleTime: 0 });
      if (!app.draft_revision_id) return;
      const latest = await queryClient.fetchQuery(fileQuery(appId, app.draft_revision_id, path));
      saveFile.reset();
      setSavedAt(null);
      onSessionChange({
        path,
        baseRevisionId: latest.revision_id,
        original: latest.content ?? "",
        value: latest.content ?? "",
      });
    } catch (error) {
      setReloadError(`Couldn’t reload ${path}: ${errorMessage(error)}`);
    } finally {
      setReloading(false);
    }
  };

  const copyEdits = async () => {
    if (!session) return;
    await navigator.clipboard.writeText(session.value);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };

  // The long words where the pane is wide, a short form where it is not: never nothing.
  const saveStatus: [long: string, short: string] | null = saveFile.isPending
    ? ["Saving…", "Saving…"]
    : dirty
      ? ["Unsaved changes", "Unsaved"]
      : savedAt
        ? savedAt.created
          ? ["Saved as a new revision", "Saved"]
          : ["No changes to save", "No changes"]
        : null;

  return (
    <section
      className="@container flex h-full min-h-0 min-w-0 flex-1 flex-col bg-white"
      aria-label="Code"
      data-testid="code-pane"
    >
      <div className="flex h-10 shrink-0 items-center gap-2 border-b border-zinc-200 px-3">
        {path ? (
          <>
            <FileIcon path={path} />
            <span
              className="min-w-0 truncate font-mono text-xs text-zinc-700"
              title={path}
              data-testid="open-file-path"
            >
              {path}
            </span>
          </>
        ) : (
          <span className="text-xs text-zinc-400">No file open</span>
        )}
        <div className="ml-auto flex items-center gap-2">
          {editing ? (
            <>
              <span
                className={cn(
                  "flex items-center gap-1.5 text-xs whitespace-nowrap",
                  dirty ? "text-amber-600" : "text-zinc-500",
                )}
                aria-live="polite"
                data-testid="save-status"
              >
                {dirty ? (
                  <span className="size-1.5 rounded-full bg-amber-500" aria-hidden="true" />
                ) : null}
                {!dirty && savedAt?.created ? (
                  <Check className="size-3.5 text-emerald-600" aria-hidden="true" />
                ) : null}
                {saveStatus ? (
                  <>
                    <span className="hidden @lg:inline">{saveStatus[0]}</span>
                    <span className="@lg:hidden">{saveStatus[1]}</span>
                  </>
                ) : null}
              </span>
              <Button
                size="sm"
                variant="ghost"
                onClick={onRequestStopEditing}
                data-testid="stop-editing"
              >
                Done
              </Button>
              <Button
                size="sm"
                variant="primary"
                onClick={save}
                disabled={saveFile.isPending || !dirty}
                data-testid="save-file"
              >
                {saveFile.isPending ? <Spinner className="size-3.5 text-current" /> : null}
                Save
                <KeyboardShortcut className="hidden @md:inline">
                  {applePlatform ? "⌘S" : "Ctrl+S"}
                </KeyboardShortcut>
              </Button>
            </>
          ) : file.data && file.data.content !== null ? (
            <Button
              size="sm"
              onClick={startEditing}
              disabled={file.isPlaceholderData}
              data-testid="edit-file"
            >
              <Pencil />
              Edit
            </Button>
          ) : null}
        </div>
      </div>

      {editing && conflict ? (
        <div
          role="alert"
          className="flex shrink-0 items-start gap-3 border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="save-conflict"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <p className="font-medium">This file changed since you started editing</p>
            <p className="mt-0.5 text-amber-800">
              The draft now has a newer version of {path}. Reload it to continue from the latest
              version; your unsaved edits will be replaced.
            </p>
            {reloadError ? <p className="mt-1 font-medium text-rose-700">{reloadError}</p> : null}
            <div className="mt-2.5 flex flex-wrap gap-2">
              <Button
                size="sm"
                variant="primary"
                onClick={reloadFile}
                disabled={reloading}
                data-testid="reload-file"
              >
                {reloading ? <Spinner className="size-3.5 text-current" /> : <RotateCw />}
                Reload file
              </Button>
              <Button size="sm" onClick={copyEdits}>
                {copied ? <Check /> : <ClipboardCopy />}
                {copied ? "Copied" : "Copy my edits"}
              </Button>
            </div>
          </div>
        </div>
      ) : editing && saveFile.isError ? (
        <p
          role="alert"
          className="shrink-0 border-b border-rose-200 bg-rose-50 px-4 py-2 text-sm text-rose-700"
        >
          Couldn’t save: {errorMessage(saveFile.error)}
        </p>
      ) : null}

      <div className="min-h-0 flex-1">
        {!path ? (
          <PaneMessage title="No file open" body="Choose a file on the left to read or edit it." />
        ) : editing && session ? (
          <CodeEditor
            key={path}
            path={path}
            value={session.value}
            onChange={(value) =>
              onSessionChange((current) =>
                current && current.path === path ? { ...current, value } : current,
              )
            }
          />
        ) : !pathExists ? (
          <PaneMessage
            icon={<FileQuestion className="size-5" aria-hidden="true" />}
            title="Not in this version"
            body={`${path} doesn’t exist in the current draft.`}
          />
        ) : file.isPending ? (
          <div className="flex h-full items-center justify-center">
            <Spinner label="Loading file" />
          </div>
        ) : file.isError ? (
          <PaneMessage title="Couldn’t open this file" body={errorMessage(file.error)} />
        ) : file.data.content === null ? (
          <PaneMessage
            title="Binary file"
            body={`${path} (${formatBytes(file.data.size)}) can’t be shown or edited as text.`}
          />
        ) : (
          <CodeViewer path={path} content={file.data.content} revealedLine={revealedLine} />
        )}
      </div>
    </section>
  );
}

function PaneMessage({ title, body, icon }: { title: string; body: string; icon?: ReactNode }) {
  return (
    <div className="flex h-full flex-col items-center justify-center px-6 text-center">
      {icon ? <span className="mb-3 text-zinc-400">{icon}</span> : null}
      <p className="text-sm font-medium text-zinc-700">{title}</p>
      <p className="mt-1 max-w-sm text-sm text-zinc-500">{body}</p>
    </div>
  );
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
