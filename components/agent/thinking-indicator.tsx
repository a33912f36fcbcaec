"use client";

import { useEffect, useState } from "react";
import { ShimmerText } from "./shimmer-text";

/** Whole seconds since `since` (ms since the epoch), refreshed every second while mounted. */
function useElapsedSeconds(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((now - since) / 1000));
}

/**
 * The shimmering "Thinking…" shown while the agent works and nothing new has arrived yet, with
 * the seconds the run has been going, so a slow model reads as slow rather than stuck.
 */
export function ThinkingIndicator({
  label = "Thinking…",
  since,
}: {
  label?: string;
  /** When the run started (ms since the epoch); the indicator's own mount time when absent. */
  since?: number;
}) {
  const [mountedAt] = useState(() => Date.now());
  const seconds = useElapsedSeconds(since ?? mountedAt);
  return (
    <p
      className="flex items-baseline gap-1.5 py-1 text-[13px]"
      data-testid="agent-thinking"
      role="status"
    >
      <ShimmerText>{label}</ShimmerText>
      <span className="text-[11px] text-zinc-400 tabular-nums" data-testid="agent-thinking-elapsed">
        {seconds} s
      </span>
    </p>
  );
}
