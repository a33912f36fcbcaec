"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { cn } from "./class-names";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** Names the dialog for assistive technology; points at the title's id. */
  labelledBy?: string;
  describedBy?: string;
  "data-testid"?: string;
}

/**
 * A modal on the native `<dialog>`: the browser traps focus, closes on Escape and puts it in the
 * top layer, so dialogs opened from a drawer stack correctly.
 */
export function Dialog({
  open,
  onClose,
  children,
  className,
  labelledBy,
  describedBy,
  ...props
}: DialogProps) {
  const reference = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = reference.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click mirrors Escape, which the dialog already handles
    <dialog
      ref={reference}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-testid={props["data-testid"]}
      // React bubbles close and cancel through the component tree, so a dialog opened from
      // inside another (a confirmation over the history drawer) would also close its parent.
      onClose={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onCancel={(event) => {
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        onClose();
      }}
      // A click that lands on the dialog element itself is a click on the backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={cn(
        "m-auto max-h-[85dvh] w-[min(28rem,calc(100vw-2rem))] overflow-hidden rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl open:animate-fade-in",
        className,
      )}
    >
      {open ? children : null}
    </dialog>
  );
}
