"use client";

import { Hourglass } from "lucide-react";
import { useEffect, useState } from "react";
import { agentApiClient } from "./agent-api-client";

/** `m:ss` until `until`, never below zero. */
export function formatCountdown(until: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * A run paused at the model provider's rate limit: how long until it goes on by itself, and a
 * way not to wait. The server resumes it; this only counts down.
 */
export function RateLimitWait({
  appId,
  runId,
  until,
}: {
  appId?: string;
  runId: string;
  until: string;
}) {
  const resumesAt = Date.parse(until);
  const [now, setNow] = useState(() => Date.now());
  const [cancelling, setCancelling] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const due = now >= resumesAt;
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-amber-200 bg-amber-50 px-2.5 py-2 text-xs text-amber-900"
      role="status"
      data-testid="agent-rate-limit-wait"
    >
      <Hourglass className="size-3.5 shrink-0 text-amber-600" aria-hidden="true" />
      <span>
        {due ? (
          "Rate limit over — resuming…"
        ) : (
          <>
            Rate limited by the provider — resumes in{" "}
            <span className="font-medium tabular-nums" data-testid="agent-rate-limit-countdown">
              {formatCountdown(resumesAt, now)}
            </span>
          </>
        )}
      </span>
      {appId ? (
        <button
          type="button"
          className="ml-auto cursor-pointer rounded border border-amber-300 bg-white px-2 py-0.5 font-medium hover:bg-amber-100 disabled:cursor-default disabled:opacity-60"
          disabled={cancelling}
          onClick={() => {
            setCancelling(true);
            setFailed(null);
            agentApiClient.cancelRun(appId, runId).then(
              () => undefined,
              (error: unknown) => {
                setCancelling(false);
                setFailed(error instanceof Error ? error.message : "Could not cancel the run.");
              },
            );
          }}
          data-testid="agent-rate-limit-cancel"
        >
          {cancelling ? "Cancelling…" : "Cancel"}
        </button>
      ) : null}
      {failed ? <span className="w-full text-rose-700">{failed}</span> : null}
    </div>
  );
}
