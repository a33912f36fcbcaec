"use client";

import { useEffect, useRef } from "react";
import { HighlightedLine } from "@/components/highlight/highlighted-line";
import { languageForPath } from "@/components/highlight/language-for-path";
import { useHighlightedLines } from "@/components/highlight/use-highlighted-lines";
import { cn } from "@/components/ui/class-names";

/** A line to scroll to and mark, e.g. where a build error points; `requestedAt` re-triggers it. */
export interface RevealedLine {
  line: number;
  requestedAt: number;
}

/** A read-only file, highlighted with shiki, with line numbers that stay out of selections. */
export function CodeViewer({
  path,
  content,
  revealedLine,
}: {
  path: string;
  content: string;
  revealedLine?: RevealedLine | null;
}) {
  const container = useRef<HTMLDivElement>(null);
  const lines = content.endsWith("\n") ? content.slice(0, -1).split("\n") : content.split("\n");
  const tokens = useHighlightedLines(lines.join("\n"), languageForPath(path));
  const gutterWidth = `${String(lines.length).length + 2}ch`;
  const markedLine = revealedLine?.line ?? null;

  useEffect(() => {
    if (!revealedLine) return;
    container.current
      ?.querySelector(`[data-line="${revealedLine.line}"]`)
      ?.scrollIntoView({ block: "center" });
  }, [revealedLine]);

  return (
    <div
      ref={container}
      className="h-full min-h-0 overflow-auto bg-white"
      data-testid="code-viewer"
      data-path={path}
    >
      <pre className="min-w-max py-2 font-mono text-[13px] leading-[1.6] text-zinc-800">
        <code>
          {lines.map((line, index) => {
            const marked = index + 1 === markedLine;
            return (
              <div
                key={index}
                data-line={index + 1}
                className={cn("flex", marked ? "bg-rose-50" : "hover:bg-zinc-50")}
              >
                <span
                  className={cn(
                    "sticky left-0 shrink-0 pr-3 text-right select-none",
                    marked ? "bg-rose-50 text-rose-500" : "bg-white text-zinc-400",
                  )}
                  style={{ width: gutterWidth }}
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <span className="pr-6 whitespace-pre">
                  <HighlightedLine tokens={tokens?.[index]} fallback={line} />
                </span>
              </div>
            );
          })}
        </code>
      </pre>
    </div>
  );
}
