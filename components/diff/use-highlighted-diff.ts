"use client";

import { useMemo } from "react";
import type { HighlightToken } from "@/components/highlight/highlighter";
import { languageForPath } from "@/components/highlight/language-for-path";
import { useHighlightedLines } from "@/components/highlight/use-highlighted-lines";
import type { DiffHunk } from "./parse-unified-diff";

/**
 * Highlights a file's diff as two texts — the old side (context and deletions) and the new side
 * (context and additions) — so multi-line strings and comments colour as they would in the
 * file, then hands each diff line its tokens. Null until highlighting is ready.
 */
export function useHighlightedDiff(path: string, hunks: DiffHunk[]): HighlightToken[][][] | null {
  const { oldText, newText } = useMemo(() => {
    const oldSide: string[] = [];
    const newSide: string[] = [];
    for (const hunk of hunks) {
      for (const line of hunk.lines) {
        if (line.kind !== "addition") oldSide.push(line.content);
        if (line.kind !== "deletion") newSide.push(line.content);
      }
    }
    return { oldText: oldSide.join("\n"), newText: newSide.join("\n") };
  }, [hunks]);

  const language = languageForPath(path);
  const oldTokens = useHighlightedLines(oldText, language);
  const newTokens = useHighlightedLines(newText, language);

  return useMemo(() => {
    if (!oldTokens || !newTokens) return null;
    let oldIndex = 0;
    let newIndex = 0;
    return hunks.map((hunk) =>
      hunk.lines.map((line) => {
        if (line.kind === "addition") return newTokens[newIndex++] ?? [];
        if (line.kind === "deletion") return oldTokens[oldIndex++] ?? [];
        oldIndex += 1;
        return newTokens[newIndex++] ?? [];
      }),
    );
  }, [hunks, oldTokens, newTokens]);
}
