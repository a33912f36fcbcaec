"use client";

import { errorMessage } from "@/components/api-client";
import type { Checkpoint } from "@/components/api-types";
import { checkpointTitle } from "@/components/history/history-selection";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useRestoreCheckpoint } from "./use-restore-checkpoint";

/** "Restore this checkpoint?" — the confirmation both the list and `/undo` go through. */
export function RestoreCheckpointDialog({
  appId,
  checkpoint,
  title = "Restore this checkpoint?",
  onClose,
  onRestored,
}: {
  appId: string;
  /** The checkpoint to restore; null keeps the dialog closed. */
  checkpoint: Checkpoint | null;
  title?: string;
  onClose: () => void;
  onRestored: (checkpoint: Checkpoint) => void;
}) {
  const restore = useRestoreCheckpoint(appId);
  const close = () => {
    restore.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={checkpoint !== null}
      title={title}
      description={
        checkpoint ? (
          <>
            The draft goes back to{" "}
            {checkpoint.kind === "pre_run" ? "how it was before" : "how it was after"} “
            {truncate(checkpointTitle(checkpoint), 80)}”. Nothing is deleted: the current version
            stays in the history, so you can restore it again.
          </>
        ) : null
      }
      confirmLabel="Restore"
      pending={restore.isPending}
      error={restore.isError ? errorMessage(restore.error) : null}
      onConfirm={() => {
        if (!checkpoint) return;
        restore.mutate(checkpoint, {
          onSuccess: () => {
            onRestored(checkpoint);
            close();
          },
        });
      }}
      onCancel={close}
      data-testid="agent-restore-dialog"
    />
  );
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
