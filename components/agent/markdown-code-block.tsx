"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { HighlightedLine } from "@/components/highlight/highlighted-line";
import { type HighlightLanguage, languageForPath } from "@/components/highlight/language-for-path";
import { useHighlightedLines } from "@/components/highlight/use-highlighted-lines";

const fenceAliases: Record<string, string> = {
  typescript: "ts",
  javascript: "js",
  markdown: "md",
  shell: "text",
  bash: "text",
  sh: "text",
};

/** The highlighter language for a fence's info string ("tsx", "typescript", "diff"…). */
export function languageForFence(fence: string): HighlightLanguage {
  const name = fence.trim().toLowerCase();
  if (!name) return "text";
  return languageForPath(`code.${fenceAliases[name] ?? name}`);
}

/**
 * A fenced code block in a reply: highlighted with the builder's shiki once the fence is
 * complete (plain while it streams, so colours do not flicker), with a copy button.
 */
export function MarkdownCodeBlock({
  code,
  fence,
  streaming,
}: {
  code: string;
  fence: string;
  streaming: boolean;
}) {
  const text = code.replace(/\n$/, "");
  const language = streaming ? "text" : languageForFence(fence);
  const tokens = useHighlightedLines(text, language);
  const lines = text.split("\n");
  return (
    <div
      className="group/code relative my-1 overflow-hidden rounded-lg bg-zinc-50 ring-1 ring-zinc-200/70"
      data-testid="agent-code-block"
    >
      <div className="flex h-7 items-center justify-between pr-1 pl-3 text-[11px] text-zinc-400">
        <span className="font-mono">{fence || "text"}</span>
        <CopyButton text={text} />
      </div>
      <pre className="max-h-96 overflow-auto px-3 pb-3 font-mono text-xs leading-5 text-zinc-800">
        <code>
          {lines.map((line, index) => (
            <span key={index} className="block">
              <HighlightedLine tokens={tokens?.[index]} fallback={line} />
            </span>
          ))}
        </code>
      </pre>
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="inline-flex size-6 cursor-pointer items-center justify-center rounded text-zinc-400 opacity-0 transition group-hover/code:opacity-100 hover:bg-zinc-200/60 hover:text-zinc-700 focus-visible:opacity-100"
      aria-label={copied ? "Copied" : "Copy code"}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          window.setTimeout(() => setCopied(false), 1_500);
        });
      }}
    >
      {copied ? <Check className="size-3.5" /> : <Copy className="size-3.5" />}
    </button>
  );
}
