import { FileText } from "lucide-react";
import { splitContext } from "./composer-context";

/** What the person asked, as a light bubble; attached files show as chips, not as text. */
export function UserMessage({ input }: { input: string }) {
  const { text, paths } = splitContext(input);
  return (
    <div
      className="rounded-lg bg-zinc-100/80 px-3 py-2 text-sm leading-relaxed whitespace-pre-wrap break-words text-zinc-900"
      data-testid="agent-user-message"
    >
      {text}
      {paths.length > 0 ? (
        <ul className="mt-1.5 flex flex-wrap gap-1 whitespace-normal" aria-label="Attached files">
          {paths.map((path) => (
            <li
              key={path}
              className="inline-flex max-w-full items-center gap-1 rounded bg-white/80 px-1.5 py-0.5 font-mono text-[11px] text-zinc-600 ring-1 ring-zinc-200/70"
            >
              <FileText className="size-3 shrink-0 text-zinc-400" aria-hidden="true" />
              <span className="truncate">{path}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
