"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { queryKeys } from "@/components/queries";
import { runStreamUrl } from "./agent-api-client";
import type { AgentRun } from "./agent-api-types";
import { agentQueryKeys, invalidateAfterRevision } from "./agent-queries";
import { createRunView, isRunFinished, type RunView, reduceRunEvent } from "./run-event-reducer";
import { followRunEvents, type RunConnectionState } from "./run-event-source";

export interface UseRunEventsOptions {
  appId: string;
  runId: string;
  /** Open the stream; a turn far up the history waits until it scrolls into view. */
  enabled: boolean;
  /**
   * The run was active when the panel saw it: its revision moves the draft head now, so the
   * workspace queries are refreshed. Replays of finished runs change nothing.
   */
  live: boolean;
}

export interface UseRunEventsResult {
  view: RunView;
  connection: RunConnectionState | "idle";
}

function scheduleFrame(callback: () => void): () => void {
  // Hidden tabs get no animation frames; a timer keeps the view (and the title) current.
  if (typeof requestAnimationFrame === "function" && document.visibilityState === "visible") {
    const frame = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(callback, 100);
  return () => clearTimeout(timer);
}

/**
 * The one stream client of the panel: follows a run's events (fetch + eventsource-parser,
 * reconnecting with Last-Event-ID and backoff) through the pure reducer, rendering at most
 * once a frame. When the run's revision lands it refreshes the workspace; when the run ends it
 * refreshes the conversation and keeps the final view in the query cache.
 */
export function useRunEvents({
  appId,
  runId,
  enabled,
  live,
}: UseRunEventsOptions): UseRunEventsResult {
  const queryClient = useQueryClient();
  const [view, setView] = useState<RunView>(
    () => queryClient.getQueryData<RunView>(agentQueryKeys.runView(runId)) ?? createRunView(runId),
  );
  const [connection, setConnection] = useState<RunConnectionState | "idle">("idle");
  const viewReference = useRef(view);
  const liveReference = useRef(live);
  liveReference.current = live;

  useEffect(() => {
    if (!enabled || isRunFinished(viewReference.current)) return;
    const controller = new AbortController();
    let cancelFrame: (() => void) | null = null;
    const flush = () => {
      cancelFrame = null;
      setView(viewReference.current);
    };

    void followRunEvents({
      url: runStreamUrl(appId, runId),
      lastSeq: () => viewReference.current.lastSeq,
      signal: controller.signal,
      onStateChange: (state) => {
        if (!controller.signal.aborted) setConnection(state);
      },
      onEvent: (event) => {
        const before = viewReference.current;
        const after = reduceRunEvent(before, event);
        if (after === before) return;
        viewReference.current = after;
        if (liveReference.current && !before.revision && after.revision) {
          void invalidateAfterRevision(queryClient, appId);
        }
        if (!isRunFinished(before) && isRunFinished(after)) {
          queryClient.setQueryData(agentQueryKeys.runView(runId), after);
          // Stop turns into Send now, not when the refetch below answers.
          const status = after.phase as "completed" | "failed" | "cancelled";
          queryClient.setQueryData<AgentRun[]>(agentQueryKeys.runs(appId), (runs) =>
            runs?.map((run) => (run.id === runId ? { ...run, status } : run)),
          );
          void queryClient.invalidateQueries({ queryKey: agentQueryKeys.runs(appId) });
          if (liveReference.current) {
            void queryClient.invalidateQueries({ queryKey: queryKeys.checkpoints(appId) });
          }
        }
        cancelFrame ??= scheduleFrame(flush);
      },
    }).then(() => {
      if (controller.signal.aborted) return;
      cancelFrame?.();
      flush();
      // The stream ended without a terminal event: the run's row says how it ended.
      if (!isRunFinished(viewReference.current)) {
        void queryClient.invalidateQueries({ queryKey: agentQueryKeys.runs(appId) });
      }
    });

    return () => {
      controller.abort();
      cancelFrame?.();
    };
  }, [appId, runId, enabled, queryClient]);

  return { view, connection };
}
