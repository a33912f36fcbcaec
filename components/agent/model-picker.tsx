"use client";

import { Check, ChevronDown, CircleAlert, Sparkles } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { cn } from "@/components/ui/class-names";
import type { ModelInfo } from "./agent-api-types";
import { autoModelId, autoResolution, providerName } from "./model-choice";

const fallbackAuto: ModelInfo = {
  id: autoModelId,
  provider: "auto",
  label: "Auto",
  available: true,
};

/**
 * The model for the next run: Auto and every configured model, unavailable ones greyed with
 * the reason. A listbox popup, keyboard-driven like a native select.
 */
export function ModelPicker({
  models,
  value,
  onChange,
  disabled = false,
}: {
  models: readonly ModelInfo[] | undefined;
  /** A model id, or "auto". */
  value: string;
  onChange: (modelId: string) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(0);
  const rootReference = useRef<HTMLDivElement>(null);
  const buttonReference = useRef<HTMLButtonElement>(null);
  const listReference = useRef<HTMLDivElement>(null);
  const listId = useId();
  const options = models && models.length > 0 ? models : [fallbackAuto];
  const selected = options.find((model) => model.id === value);
  const autoModel = models ? autoResolution(models) : null;
  const unavailable = selected ? !selected.available : value !== autoModelId;

  useEffect(() => {
    if (!open) return;
    listReference.current?.focus();
    const closeOnOutsidePointer = (event: PointerEvent) => {
      if (!rootReference.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutsidePointer);
    return () => document.removeEventListener("pointerdown", closeOnOutsidePointer);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    listReference.current
      ?.querySelector(`[data-index="${activeIndex}"]`)
      ?.scrollIntoView({ block: "nearest" });
  }, [open, activeIndex]);

  const enabledIndexes = options.flatMap((model, index) => (model.available ? [index] : []));

  const openList = () => {
    const current = options.findIndex((model) => model.id === value);
    setActiveIndex(current >= 0 && options[current].available ? current : (enabledIndexes[0] ?? 0));
    setOpen(true);
  };

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) buttonReference.current?.focus();
  };

  const choose = (index: number) => {
    const model = options[index];
    if (!model?.available) return;
    onChange(model.id);
    close(true);
  };

  const move = (direction: 1 | -1 | "first" | "last") => {
    if (enabledIndexes.length === 0) return;
    if (direction === "first") return setActiveIndex(enabledIndexes[0]);
    if (direction === "last") return setActiveIndex(enabledIndexes[enabledIndexes.length - 1]);
    const position = enabledIndexes.indexOf(activeIndex);
    const next =
      position < 0 ? 0 : Math.min(enabledIndexes.length - 1, Math.max(0, position + direction));
    setActiveIndex(enabledIndexes[next]);
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    switch (event.key) {
      case "ArrowDown":
        move(1);
        break;
      case "ArrowUp":
        move(-1);
        break;
      case "Home":
        move("first");
        break;
      case "End":
        move("last");
        break;
      case "Enter":
      case " ":
        choose(activeIndex);
        break;
      case "Escape":
        close(true);
        break;
      case "Tab":
        close(false);
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div ref={rootReference} className="relative min-w-0">
      <button
        ref={buttonReference}
        type="button"
        disabled={disabled}
        className={cn(
          "inline-flex h-7 max-w-full min-w-0 cursor-pointer items-center gap-1 rounded-md px-2 text-xs font-medium text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-50",
          unavailable && "text-amber-700",
        )}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={`Model: ${selected?.label ?? value}`}
        title={unavailable ? (selected?.reason ?? "This model is not configured.") : undefined}
        onClick={() => (open ? close(false) : openList())}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            openList();
          }
        }}
        data-testid="agent-model-picker"
        data-model-id={value}
      >
        {unavailable ? (
          <CircleAlert className="size-3.5 shrink-0" aria-hidden="true" />
        ) : value === autoModelId ? (
          <Sparkles className="size-3.5 shrink-0 text-zinc-400" aria-hidden="true" />
        ) : null}
        <span className="truncate">{selected?.label ?? value}</span>
        <ChevronDown className="size-3 shrink-0 text-zinc-400" aria-hidden="true" />
      </button>
      {open ? (
        <div
          ref={listReference}
          id={listId}
          role="listbox"
          tabIndex={-1}
          aria-label="Model"
          aria-activedescendant={`${listId}-${activeIndex}`}
          onKeyDown={onListKeyDown}
          className="absolute bottom-full left-0 z-30 mb-1.5 max-h-80 w-72 overflow-y-auto rounded-lg bg-white p-1 shadow-lg ring-1 ring-zinc-200 outline-none animate-fade-in"
          data-testid="agent-model-options"
        >
          {options.map((model, index) => {
            const isSelected = model.id === value;
            const description =
              model.id === autoModelId
                ? model.available
                  ? `Uses ${autoModel?.label ?? "the first available model"}`
                  : model.reason
                : model.available
                  ? providerName(model.provider)
                  : model.reason;
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keyboard.
              <div
                key={model.id}
                tabIndex={-1}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={isSelected}
                aria-disabled={!model.available}
                data-index={index}
                data-testid="agent-model-option"
                data-model-id={model.id}
                data-available={model.available}
                onPointerMove={() => model.available && setActiveIndex(index)}
                onClick={() => choose(index)}
                className={cn(
                  "flex cursor-pointer items-start gap-2 rounded-md px-2 py-1.5 text-left",
                  index === activeIndex && model.available && "bg-zinc-100",
                  !model.available && "cursor-not-allowed opacity-55",
                )}
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-[13px] font-medium text-zinc-800">
                    {model.label}
                  </span>
                  {description ? (
                    <span className="mt-0.5 block text-[11px] leading-snug text-zinc-500">
                      {description}
                    </span>
                  ) : null}
                </span>
                {isSelected ? (
                  <Check className="mt-0.5 size-3.5 shrink-0 text-zinc-700" aria-hidden="true" />
                ) : null}
              </div>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
