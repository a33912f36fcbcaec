"use client";

import { ChevronRight, FileMinus2, FilePen, FilePlus2 } from "lucide-react";
import { useMemo, useState } from "react";
import type { FileDiff } from "@/components/api-types";
import { HighlightedLine } from "@/components/highlight/highlighted-line";
import type { HighlightToken } from "@/components/highlight/highlighter";
import { cn } from "@/components/ui/class-names";
import { DiffStat } from "./diff-stat";
import { type DiffHunk, parseUnifiedDiff } from "./parse-unified-diff";
import { useHighlightedDiff } from "./use-highlighted-diff";

const statusPresentation = {
  added: { icon: FilePlus2, label: "Added", className: "text-emerald-600" },
  modified: { icon: FilePen, label: "Modified", className: "text-amber-600" },
  deleted: { icon: FileMinus2, label: "Deleted", className: "text-rose-600" },
} as const;

const rowClassName = {
  context: "",
  addition: "bg-emerald-50",
  deletion: "bg-rose-50",
} as const;

const gutterClassName = {
  context: "text-zinc-400",
  addition: "bg-emerald-100/70 text-emerald-700/70",
  deletion: "bg-rose-100/70 text-rose-700/70",
} as const;

const markerByKind = { context: " ", addition: "+", deletion: "-" } as const;

/** Diffs this long start folded, so one generated file doesn't bury the rest. */
const foldedLineThreshold = 400;

/** One file of a diff: a header with path and +N −M, then its hunks with both line numbers. */
export function DiffFile({ file }: { file: FileDiff }) {
  const hunks = useMemo(() => parseUnifiedDiff(file.patch), [file.patch]);
  const lineCount = hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
  const [expanded, setExpanded] = useState(lineCount <= foldedLineThreshold);
  const presentation = statusPresentation[file.status];
  const StatusIcon = presentation.icon;
  const bodyId = `diff-${file.path.replace(/[^a-zA-Z0-9_-]/g, "-")}`;

  return (
    <section
      className="overflow-hidden rounded-lg border border-zinc-200 bg-white"
      data-testid="diff-file"
      data-path={file.path}
      data-status={file.status}
    >
      <h3 className="sticky top-0 z-10 m-0">
        <button
          type="button"
          className="flex w-full cursor-pointer items-center gap-2 border-b border-zinc-200 bg-zinc-50/95 px-3 py-2 text-left backdrop-blur hover:bg-zinc-100/80"
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={() => setExpanded((value) => !value)}
        >
          <ChevronRight
            className={cn(
              "size-3.5 shrink-0 text-zinc-400 transition-transform",
              expanded && "rotate-90",
            )}
            aria-hidden="true"
          />
          <StatusIcon
            className={cn("size-4 shrink-0", presentation.className)}
            aria-hidden="true"
          />
          <span className="sr-only">{presentation.label}:</span>
          <span
            className="min-w-0 flex-1 truncate font-mono text-xs font-medium text-zinc-800"
            title={file.path}
          >
            {file.path}
          </span>
          {file.binary ? (
            <span className="text-xs text-zinc-500">binary</span>
          ) : (
            <DiffStat additions={file.additions} deletions={file.deletions} blocks />
          )}
        </button>
      </h3>
      {expanded ? (
        <div id={bodyId}>
          {file.binary ? (
            <p className="px-4 py-3 text-xs text-zinc-500">
              Binary file {presentation.label.toLowerCase()}; no text diff to show.
            </p>
          ) : hunks.length === 0 ? (
            <p className="px-4 py-3 text-xs text-zinc-500">Empty file.</p>
          ) : (
            <DiffHunks path={file.path} hunks={hunks} />
          )}
        </div>
      ) : null}
    </section>
  );
}

function DiffHunks({ path, hunks }: { path: string; hunks: DiffHunk[] }) {
  const tokens = useHighlightedDiff(path, hunks);
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse font-mono text-xs leading-5">
        <tbody>
          {hunks.map((hunk, hunkIndex) => (
            <HunkRows key={hunkIndex} hunk={hunk} tokens={tokens?.[hunkIndex]} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HunkRows({ hunk, tokens }: { hunk: DiffHunk; tokens?: HighlightToken[][] }) {
  return (
    <>
      <tr className="bg-indigo-50/60 text-indigo-900/60">
        <td colSpan={4} className="px-3 py-1 select-none">
          {hunk.header}
        </td>
      </tr>
      {hunk.lines.map((line, lineIndex) => (
        <tr
          key={lineIndex}
          className={rowClassName[line.kind]}
          data-testid={line.kind === "context" ? undefined : `diff-line-${line.kind}`}
        >
          <td
            className={cn(
              "w-10 px-2 text-right align-top tabular-nums select-none",
              gutterClassName[line.kind],
            )}
          >
            {line.oldNumber ?? ""}
          </td>
          <td
            className={cn(
              "w-10 px-2 text-right align-top tabular-nums select-none",
              gutterClassName[line.kind],
            )}
          >
            {line.newNumber ?? ""}
          </td>
          <td
            className={cn(
              "w-5 pl-2 align-top select-none",
              line.kind === "addition" && "text-emerald-600",
              line.kind === "deletion" && "text-rose-600",
            )}
            aria-label={line.kind === "context" ? undefined : line.kind}
          >
            {markerByKind[line.kind]}
          </td>
          <td className="pr-4 whitespace-pre text-zinc-800">
            <HighlightedLine tokens={tokens?.[lineIndex]} fallback={line.content} />
            {line.noFinalNewline ? (
              <span
                className="ml-2 text-[10px] text-zinc-400 select-none"
                title="No newline at end of file"
              >
                ⏎̸
              </span>
            ) : null}
          </td>
        </tr>
      ))}
    </>
  );
}
