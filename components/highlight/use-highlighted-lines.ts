"use client";

import { useEffect, useState } from "react";
import { type HighlightToken, highlightLines } from "./highlighter";
import type { HighlightLanguage } from "./language-for-path";

/**
 * Highlights code after render; until the tokens arrive (null), callers show the plain lines in
 * the same layout, so nothing jumps when colour appears.
 */
export function useHighlightedLines(
  code: string,
  language: HighlightLanguage,
): HighlightToken[][] | null {
  const [result, setResult] = useState<{
    code: string;
    language: HighlightLanguage;
    lines: HighlightToken[][];
  } | null>(null);

  useEffect(() => {
    let cancelled = false;
    highlightLines(code, language).then(
      (lines) => {
        if (!cancelled) setResult({ code, language, lines });
      },
      (error: unknown) => {
        // Plain text is a fine fallback; the cause still reaches the console.
        console.error("[patchwork] highlighting failed", error);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code, language]);

  return result && result.code === code && result.language === language ? result.lines : null;
}
