"use client";

import { type PointerEvent, useRef } from "react";
import { cn } from "./class-names";

/**
 * A vertical splitter between two panes. Drag it, or focus it and use ←/→ (Shift for bigger
 * steps). Reports the fraction (0–1) of the container's width left of the handle.
 */
export function ResizeHandle({
  value,
  onChange,
  onDraggingChange,
  label,
  minimum = 0.2,
  maximum = 0.8,
}: {
  value: number;
  onChange: (fraction: number) => void;
  onDraggingChange?: (dragging: boolean) => void;
  label: string;
  minimum?: number;
  maximum?: number;
}) {
  const handle = useRef<HTMLDivElement>(null);
  const clamp = (fraction: number) => Math.min(maximum, Math.max(minimum, fraction));

  const follow = (event: PointerEvent<HTMLDivElement>) => {
    const container = handle.current?.parentElement;
    if (!container || !event.currentTarget.hasPointerCapture(event.pointerId)) return;
    const bounds = container.getBoundingClientRect();
    onChange(clamp((event.clientX - bounds.left) / bounds.width));
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is the ARIA pattern for a resizable splitter; <hr> cannot take focus
    <div
      ref={handle}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(value * 100)}
      aria-valuemin={Math.round(minimum * 100)}
      aria-valuemax={Math.round(maximum * 100)}
      tabIndex={0}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        onDraggingChange?.(true);
      }}
      onPointerMove={follow}
      onPointerUp={(event) => {
        event.currentTarget.releasePointerCapture(event.pointerId);
        onDraggingChange?.(false);
      }}
      onPointerCancel={() => onDraggingChange?.(false)}
      onDoubleClick={() => onChange(0.5)}
      onKeyDown={(event) => {
        const step = event.shiftKey ? 0.1 : 0.02;
        if (event.key === "ArrowLeft") onChange(clamp(value - step));
        else if (event.key === "ArrowRight") onChange(clamp(value + step));
        else return;
        event.preventDefault();
      }}
      className={cn(
        "group relative z-10 w-px shrink-0 cursor-col-resize bg-zinc-200 outline-none",
        "before:absolute before:inset-y-0 before:-left-1.5 before:w-3 before:content-['']",
        "after:absolute after:inset-y-0 after:-left-px after:w-[3px] after:bg-indigo-500 after:opacity-0 after:transition-opacity after:content-['']",
        "hover:after:opacity-60 focus-visible:after:opacity-100",
      )}
    />
  );
}
