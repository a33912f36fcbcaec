"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Download, FilePlus, FolderPlus, Pencil, Trash2, Upload } from "lucide-react";
import { useId, useRef, useState } from "react";
import { errorMessage, request } from "@/components/api-client";
import type { Revision } from "@/components/api-types";
import { applyDraftHead } from "@/components/queries";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";

type Operation =
  | { type: "create_file"; path: string; content?: string }
  | { type: "create_folder"; path: string }
  | { type: "upload"; path: string; content_base64: string }
  | { type: "rename"; from: string; to: string }
  | { type: "delete"; path: string };

type NamePrompt = { kind: "file" | "folder" | "rename"; initial: string };

/**
 * The file tree's toolbar: new file, new folder, upload, rename/move and delete (after a confirm)
 * of the selected file, and a zip download. Each action is one revision on the draft head.
 */
export function FileActions({
  appId,
  draftRevisionId,
  selectedPath,
  onOpen,
}: {
  appId: string;
  draftRevisionId: string | null;
  selectedPath: string | null;
  onOpen: (path: string) => void;
}) {
  const queryClient = useQueryClient();
  const [prompt, setPrompt] = useState<NamePrompt | null>(null);
  const [name, setName] = useState("");
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const upload = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const folder = selectedPath?.includes("/")
    ? selectedPath.slice(0, selectedPath.lastIndexOf("/") + 1)
    : "";

  async function run(operations: Operation[]): Promise<boolean> {
    if (!draftRevisionId) return false;
    setPending(true);
    setError(null);
    try {
      const { revision } = await request<{ revision: Revision }>(
        "POST",
        `/api/apps/${encodeURIComponent(appId)}/files/operations`,
        { body: { base_revision_id: draftRevisionId, operations } },
      );
      await applyDraftHead(queryClient, appId, revision.id);
      return true;
    } catch (caught) {
      setError(errorMessage(caught));
      return false;
    } finally {
      setPending(false);
    }
  }

  function open(kind: NamePrompt["kind"]) {
    const initial = kind === "rename" ? (selectedPath ?? "") : folder;
    setPrompt({ kind, initial });
    setName(initial);
    setError(null);
  }

  async function submitName() {
    if (!prompt) return;
    const target = name.trim();
    const operation: Operation =
      prompt.kind === "file"
        ? { type: "create_file", path: target, content: "" }
        : prompt.kind === "folder"
          ? { type: "create_folder", path: target }
          : { type: "rename", from: prompt.initial, to: target };
    if (await run([operation])) {
      setPrompt(null);
      if (prompt.kind !== "folder") onOpen(target);
    }
  }

  async function uploadFiles(files: FileList | null) {
    if (!files || files.length === 0) return;
    const operations: Operation[] = [];
    for (const file of Array.from(files)) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      operations.push({
        type: "upload",
        path: `${folder}${file.name}`,
        content_base64: btoa(binary),
      });
    }
    await run(operations);
    if (upload.current) upload.current.value = "";
  }

  const titles = { file: "New file", folder: "New folder", rename: "Rename or move" };
  return (
    <div className="flex flex-wrap items-center gap-0.5 border-b border-zinc-200 px-1.5 py-1">
      <Button
        size="icon-sm"
        variant="ghost"
        title="New file"
        aria-label="New file"
        data-testid="files-new-file"
        onClick={() => open("file")}
        disabled={!draftRevisionId}
      >
        <FilePlus />
      </Button>
      <Button
        size="icon-sm"
        variant="ghost"
        title="New folder"
        aria-label="New folder"
        data-testid="files-new-folder"
        onClick={() => open("folder")}
        disabled={!draftRevisionId}
      >
        <FolderPlus />
      </Button>
      <Button
        size="icon-sm"
        variant="ghost"
        title="Upload files"
        aria-label="Upload files"
        data-testid="files-upload"
        onClick={() => upload.current?.click()}
        disabled={!draftRevisionId || pending}
      >
        <Upload />
      </Button>
      <input
        ref={upload}
        type="file"
        multiple
        hidden
        data-testid="files-upload-input"
        onChange={(event) => void uploadFiles(event.target.files)}
      />
      <Button
        size="icon-sm"
        variant="ghost"
        title="Rename or move the open file"
        aria-label="Rename or move"
        data-testid="files-rename"
        onClick={() => open("rename")}
        disabled={!selectedPath}
      >
        <Pencil />
      </Button>
      <Button
        size="icon-sm"
        variant="ghost"
        title="Delete the open file"
        aria-label="Delete file"
        data-testid="files-delete"
        onClick={() => {
          setError(null);
          setConfirmDelete(true);
        }}
        disabled={!selectedPath}
      >
        <Trash2 />
      </Button>
      <a
        href={`/api/apps/${encodeURIComponent(appId)}/export?format=zip`}
        download
        title="Download the draft as a zip"
        aria-label="Download zip"
        data-testid="files-export-zip"
        className="ml-auto inline-flex size-7 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-200/70 hover:text-zinc-900 [&_svg]:size-4"
      >
        <Download />
      </a>
      {error && !prompt && !confirmDelete ? (
        <p
          role="alert"
          className="w-full px-1 text-xs text-rose-600"
          data-testid="files-action-error"
        >
          {error}
        </p>
      ) : null}

      <Dialog
        open={prompt !== null}
        onClose={() => !pending && setPrompt(null)}
        labelledBy={titleId}
        data-testid="file-name-dialog"
      >
        <form
          className="space-y-3 p-5"
          onSubmit={(event) => {
            event.preventDefault();
            void submitName();
          }}
        >
          <h2 id={titleId} className="text-base font-semibold tracking-tight">
            {prompt ? titles[prompt.kind] : ""}
          </h2>
          <Input
            aria-label="Path"
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoFocus
            data-testid="file-name-input"
            placeholder="src/components/Button.tsx"
          />
          {error ? (
            <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button
              type="button"
              variant="ghost"
              onClick={() => setPrompt(null)}
              disabled={pending}
            >
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={pending || name.trim() === ""}
              data-testid="file-name-submit"
            >
              {prompt?.kind === "rename" ? "Move" : "Create"}
            </Button>
          </div>
        </form>
      </Dialog>

      <ConfirmDialog
        open={confirmDelete}
        title="Delete this file?"
        description={
          <>
            Delete <strong>{selectedPath}</strong>? History keeps it, so you can restore an earlier
            revision.
          </>
        }
        confirmLabel="Delete"
        tone="danger"
        pending={pending}
        error={error}
        onConfirm={async () => {
          if (selectedPath && (await run([{ type: "delete", path: selectedPath }])))
            setConfirmDelete(false);
        }}
        onCancel={() => setConfirmDelete(false)}
        data-testid="file-delete-dialog"
      />
    </div>
  );
}
