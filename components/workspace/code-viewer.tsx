"use client";

import { HighlightedLine } from "@/components/highlight/highlighted-line";
import { languageForPath } from "@/components/highlight/language-for-path";
import { useHighlightedLines } from "@/components/highlight/use-highlighted-lines";

/** A read-only file, highlighted with shiki, with line numbers that stay out of selections. */
export function CodeViewer({ path, content }: { path: string; content: string }) {
  const lines = content.endsWith("\n") ? content.slice(0, -1).split("\n") : content.split("\n");
  const tokens = useHighlightedLines(lines.join("\n"), languageForPath(path));
  const gutterWidth = `${String(lines.length).length + 2}ch`;

  return (
    <div
      className="h-full min-h-0 overflow-auto bg-white"
      data-testid="code-viewer"
      data-path={path}
    >
      <pre className="min-w-max py-2 font-mono text-[13px] leading-[1.6] text-zinc-800">
        <code>
          {lines.map((line, index) => (
            <div key={index} className="flex hover:bg-zinc-50">
              <span
                className="sticky left-0 shrink-0 bg-white pr-3 text-right text-zinc-400 select-none"
                style={{ width: gutterWidth }}
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <span className="pr-6 whitespace-pre">
                <HighlightedLine tokens={tokens?.[index]} fallback={line} />
              </span>
            </div>
          ))}
        </code>
      </pre>
    </div>
  );
}
