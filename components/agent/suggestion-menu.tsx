"use client";

import type { LucideIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { cn } from "@/components/ui/class-names";

export interface Suggestion {
  key: string;
  label: string;
  description?: string;
  icon: LucideIcon;
}

/**
 * The popup above the composer for `@` files and `/` commands. The textarea keeps focus and
 * drives it (aria-activedescendant); a click chooses too.
 */
export function SuggestionMenu({
  id,
  label,
  suggestions,
  activeIndex,
  onChoose,
  onHover,
  emptyText,
  testId,
}: {
  id: string;
  label: string;
  suggestions: Suggestion[];
  activeIndex: number;
  onChoose: (index: number) => void;
  onHover: (index: number) => void;
  emptyText: string;
  testId: string;
}) {
  const listReference = useRef<HTMLDivElement>(null);
  useEffect(() => {
    listReference.current
      ?.querySelector(`[data-index="${activeIndex}"]`)
      ?.scrollIntoView({ block: "nearest" });
  }, [activeIndex]);

  return (
    <div className="absolute right-0 bottom-full left-0 z-20 mb-1.5 overflow-hidden rounded-lg bg-white shadow-lg ring-1 ring-zinc-200 animate-fade-in">
      <p className="px-3 pt-2 pb-1 text-[11px] font-medium text-zinc-400">{label}</p>
      {suggestions.length === 0 ? (
        <p className="px-3 pb-2.5 text-xs text-zinc-500">{emptyText}</p>
      ) : (
        <div
          ref={listReference}
          id={id}
          role="listbox"
          aria-label={label}
          className="max-h-56 overflow-y-auto px-1 pb-1"
          data-testid={testId}
        >
          {suggestions.map((suggestion, index) => {
            const Icon = suggestion.icon;
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the composer's textarea drives the keyboard.
              <div
                key={suggestion.key}
                tabIndex={-1}
                id={`${id}-${index}`}
                role="option"
                aria-selected={index === activeIndex}
                data-index={index}
                data-testid={`${testId}-item`}
                data-value={suggestion.key}
                // Keep focus in the textarea when the pointer chooses.
                onMouseDown={(event) => event.preventDefault()}
                onPointerMove={() => onHover(index)}
                onClick={() => onChoose(index)}
                className={cn(
                  "flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-[13px]",
                  index === activeIndex ? "bg-zinc-100 text-zinc-900" : "text-zinc-700",
                )}
              >
                <Icon className="size-3.5 shrink-0 text-zinc-400" aria-hidden="true" />
                <span className="min-w-0 truncate font-medium">{suggestion.label}</span>
                {suggestion.description ? (
                  <span className="ml-auto min-w-0 truncate pl-2 text-xs text-zinc-400">
                    {suggestion.description}
                  </span>
                ) : null}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
