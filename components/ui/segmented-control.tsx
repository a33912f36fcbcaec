"use client";

import type { ReactNode } from "react";
import { cn } from "./class-names";

export interface SegmentedOption<Value extends string> {
  value: Value;
  label: ReactNode;
  /** Spoken name when the label is only an icon. */
  accessibleLabel?: string;
  testId?: string;
}

/** A small radio group drawn as joined buttons (view modes, diff bases). */
export function SegmentedControl<Value extends string>({
  value,
  options,
  onChange,
  label,
  className,
}: {
  value: Value;
  options: SegmentedOption<Value>[];
  onChange: (value: Value) => void;
  label: string;
  className?: string;
}) {
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={cn("inline-flex items-center rounded-lg bg-zinc-100 p-0.5", className)}
    >
      {options.map((option) => {
        const selected = option.value === value;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a styled radio button keeps one tab stop per option and a visible pressed state
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={selected}
            aria-label={option.accessibleLabel}
            title={option.accessibleLabel}
            data-testid={option.testId}
            onClick={() => onChange(option.value)}
            className={cn(
              "inline-flex h-6 cursor-pointer items-center gap-1.5 rounded-md px-2 text-xs font-medium transition-colors [&_svg]:size-3.5",
              selected
                ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200/80"
                : "text-zinc-500 hover:text-zinc-800",
            )}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
