"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowUp, Eraser, FileText, ListPlus, Square, Undo2, X } from "lucide-react";
import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { appQuery, filesQuery } from "@/components/queries";
import { cn } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import {
  type ActiveMention,
  findActiveMention,
  insertMention,
  rankPaths,
} from "./composer-context";
import { matchingSlashCommands } from "./slash-commands";
import { type Suggestion, SuggestionMenu } from "./suggestion-menu";

export const composerPlaceholder = "Plan, @ for context, / for commands";

const commandIcons = { undo: Undo2, clear: Eraser } as const;

/** Paths chosen from the `@` menu that the text still mentions: the files sent as context. */
function attachedPaths(text: string, chosen: ReadonlySet<string>): string[] {
  return [...chosen].filter((path) =>
    new RegExp(`(^|\\s)@${escapeRegExp(path)}(?=\\s|$)`).test(text),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The message box pinned under the conversation: Enter sends, Shift+Enter is a newline, `@`
 * attaches files from the draft, `/` offers the commands; Stop replaces Send while a run works.
 */
export function Composer({
  appId,
  running,
  stopping,
  disabled,
  disabledReason,
  onSubmit,
  onStop,
  footer,
  seed,
}: {
  appId: string;
  running: boolean;
  stopping: boolean;
  /** No model can run: typing is pointless until one is configured. */
  disabled: boolean;
  disabledReason?: string;
  /** Resolves false when the message was not accepted; the composer then keeps it. */
  onSubmit: (text: string, attachments: string[]) => Promise<boolean>;
  onStop: () => void;
  /** The model picker, at the left of the composer's footer. */
  footer: ReactNode;
  /** Text to put in the box (an example prompt); a new object each time it should apply. */
  seed?: { text: string } | null;
}) {
  const [text, setText] = useState("");
  const [caret, setCaret] = useState(0);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [activeIndex, setActiveIndex] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const textareaReference = useRef<HTMLTextAreaElement>(null);
  const menuId = useId();

  const mention: ActiveMention | null = findActiveMention(text, caret);
  const commands = matchingSlashCommands(text);
  const menuKind =
    dismissedAt === text ? null : mention ? "mention" : commands.length > 0 ? "command" : null;

  const app = useQuery({ ...appQuery(appId), enabled: menuKind === "mention" });
  const draftRevisionId = app.data?.draft_revision_id ?? null;
  const files = useQuery({
    ...filesQuery(appId, draftRevisionId),
    enabled: menuKind === "mention" && !!draftRevisionId,
  });

  const suggestions: Suggestion[] = useMemo(() => {
    if (menuKind === "command") {
      return commands.map((command) => ({
        key: command.name,
        label: `/${command.name}`,
        description: command.description,
        icon: commandIcons[command.name],
      }));
    }
    if (menuKind === "mention" && mention) {
      const paths = files.data?.files.map((file) => file.path) ?? [];
      return rankPaths(paths, mention.query).map((path) => ({
        key: path,
        label: path.slice(path.lastIndexOf("/") + 1),
        description: path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : undefined,
        icon: FileText,
      }));
    }
    return [];
  }, [menuKind, commands, mention, files.data]);

  useEffect(() => {
    setActiveIndex((index) => Math.min(index, Math.max(0, suggestions.length - 1)));
  }, [suggestions.length]);

  useEffect(() => {
    if (!seed) return;
    setText(seed.text);
    setCaret(seed.text.length);
    textareaReference.current?.focus();
  }, [seed]);

  const attachments = attachedPaths(text, chosen);

  const setTextAndCaret = (next: string, nextCaret: number) => {
    setText(next);
    setCaret(nextCaret);
    requestAnimationFrame(() => {
      textareaReference.current?.focus();
      textareaReference.current?.setSelectionRange(nextCaret, nextCaret);
    });
  };

  const submit = async (value: string = text) => {
    // While a run is going, the panel queues the message and sends it when the run ends.
    if (disabled || submitting) return;
    if (!value.trim()) return;
    const sentAttachments = attachedPaths(value, chosen);
    setSubmitting(true);
    setText("");
    setCaret(0);
    const accepted = await onSubmit(value.trim(), sentAttachments).catch(() => false);
    setSubmitting(false);
    if (accepted) setChosen(new Set());
    else setTextAndCaret(value, value.length);
  };

  const choose = (index: number) => {
    const suggestion = suggestions[index];
    if (!suggestion) return;
    if (menuKind === "command") {
      void submit(`/${suggestion.key}`);
      return;
    }
    if (menuKind === "mention" && mention) {
      const next = insertMention(text, mention, suggestion.key);
      setChosen((previous) => new Set(previous).add(suggestion.key));
      setTextAndCaret(next.text, next.caret);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (menuKind && suggestions.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActiveIndex((index) => (index + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        choose(activeIndex);
        return;
      }
    }
    if (menuKind && event.key === "Escape") {
      event.preventDefault();
      setDismissedAt(text);
      return;
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  };

  const removeAttachment = (path: string) => {
    const next = text
      .replace(new RegExp(`(^|\\s)@${escapeRegExp(path)}(?=\\s|$) ?`, "g"), "$1")
      .replace(/\s+$/, (trailing) => (trailing.includes("\n") ? trailing : ""));
    setChosen((previous) => {
      const copy = new Set(previous);
      copy.delete(path);
      return copy;
    });
    setTextAndCaret(next, next.length);
  };

  const canSend = !disabled && !submitting && text.trim().length > 0;
  const menuOpen = menuKind !== null;

  return (
    <form
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="agent-composer"
    >
      {menuKind === "mention" ? (
        <SuggestionMenu
          id={menuId}
          label="Attach a file"
          suggestions={suggestions}
          activeIndex={activeIndex}
          onChoose={choose}
          onHover={setActiveIndex}
          emptyText={files.isPending ? "Loading files…" : "No matching files"}
          testId="agent-mention-menu"
        />
      ) : menuKind === "command" ? (
        <SuggestionMenu
          id={menuId}
          label="Commands"
          suggestions={suggestions}
          activeIndex={activeIndex}
          onChoose={choose}
          onHover={setActiveIndex}
          emptyText="No such command"
          testId="agent-command-menu"
        />
      ) : null}
      <div
        className={cn(
          "rounded-xl bg-white shadow-xs ring-1 ring-zinc-200 transition-shadow focus-within:ring-zinc-300 focus-within:shadow-sm",
          disabled && "bg-zinc-50",
        )}
      >
        {attachments.length > 0 ? (
          <ul className="flex flex-wrap gap-1 px-2.5 pt-2" aria-label="Attached files">
            {attachments.map((path) => (
              <li
                key={path}
                className="inline-flex max-w-full items-center gap-1 rounded-md bg-zinc-100 py-0.5 pr-0.5 pl-1.5 text-[11px] text-zinc-700"
                data-testid="agent-attachment"
              >
                <FileText className="size-3 shrink-0 text-zinc-400" aria-hidden="true" />
                <span className="truncate font-mono">{path}</span>
                <button
                  type="button"
                  className="inline-flex size-4 cursor-pointer items-center justify-center rounded text-zinc-400 hover:bg-zinc-200 hover:text-zinc-700"
                  aria-label={`Remove ${path}`}
                  onClick={() => removeAttachment(path)}
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <textarea
          ref={textareaReference}
          value={text}
          rows={2}
          disabled={disabled}
          placeholder={running ? "Queue a message for when this run ends…" : composerPlaceholder}
          aria-label="Message the agent"
          aria-describedby={disabledReason ? `${menuId}-reason` : undefined}
          role="combobox"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? menuId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={
            menuOpen && suggestions.length > 0 ? `${menuId}-${activeIndex}` : undefined
          }
          onChange={(event) => {
            setText(event.target.value);
            setCaret(event.target.selectionStart);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setDismissedAt(text)}
          onFocus={() => setDismissedAt(null)}
          className="block max-h-48 min-h-14 w-full resize-none bg-transparent px-3 pt-2.5 pb-1 text-sm leading-relaxed text-zinc-900 outline-none [field-sizing:content] placeholder:text-zinc-400 disabled:cursor-not-allowed"
          data-testid="agent-composer-input"
        />
        {disabledReason ? (
          <span id={`${menuId}-reason`} className="sr-only">
            {disabledReason}
          </span>
        ) : null}
        <div className="flex items-center gap-2 px-1.5 pb-1.5">
          <div className="min-w-0 flex-1">{footer}</div>
          {running && canSend ? (
            <button
              type="submit"
              title="Send when this run ends (Enter)"
              className="inline-flex h-7 shrink-0 cursor-pointer items-center gap-1.5 rounded-lg border border-zinc-200 px-2.5 text-xs font-medium text-zinc-700 transition-colors hover:bg-zinc-50"
              data-testid="agent-queue"
            >
              <ListPlus className="size-3.5" aria-hidden="true" />
              Queue
            </button>
          ) : null}
          {running ? (
            <button
              type="button"
              onClick={onStop}
              disabled={stopping}
              className="inline-flex h-7 shrink-0 cursor-pointer items-center gap-1.5 rounded-lg bg-zinc-900 px-2.5 text-xs font-medium text-white transition-colors hover:bg-zinc-700 disabled:cursor-wait disabled:bg-zinc-500"
              data-testid="agent-stop"
            >
              {stopping ? (
                <Spinner className="size-3 text-current" />
              ) : (
                <Square className="size-2.5 fill-current" aria-hidden="true" />
              )}
              {stopping ? "Stopping…" : "Stop"}
            </button>
          ) : (
            <button
              type="submit"
              disabled={!canSend}
              aria-label="Send"
              title="Send (Enter)"
              className="inline-flex size-7 shrink-0 cursor-pointer items-center justify-center rounded-lg bg-zinc-900 text-white transition-colors hover:bg-zinc-700 disabled:cursor-not-allowed disabled:bg-zinc-200 disabled:text-zinc-400"
              data-testid="agent-send"
            >
              {submitting ? (
                <Spinner className="size-3.5 text-current" />
              ) : (
                <ArrowUp className="size-4" aria-hidden="true" />
              )}
            </button>
          )}
        </div>
      </div>
    </form>
  );
}
