"use client";

import { type ReactNode, useId } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { Spinner } from "./spinner";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  tone?: "default" | "danger";
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  "data-testid"?: string;
}

export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  tone = "default",
  pending = false,
  error,
  onConfirm,
  onCancel,
  ...props
}: ConfirmDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!pending) onCancel();
      }}
      labelledBy={titleId}
      describedBy={descriptionId}
      data-testid={props["data-testid"]}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <div className="space-y-2 px-5 pt-5 pb-4">
          <h2 id={titleId} className="text-base font-semibold tracking-tight">
            {title}
          </h2>
          <div id={descriptionId} className="text-sm leading-relaxed text-zinc-600">
            {description}
          </div>
          {error ? (
            <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex justify-end gap-2 border-t border-zinc-100 bg-zinc-50/80 px-5 py-3">
          <Button onClick={onCancel} disabled={pending} data-testid="confirm-dialog-cancel">
            Cancel
          </Button>
          <Button
            type="submit"
            variant={tone === "danger" ? "danger" : "primary"}
            disabled={pending}
            autoFocus
            data-testid="confirm-dialog-confirm"
          >
            {pending ? <Spinner className="text-current" /> : null}
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
