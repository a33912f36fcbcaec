"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, errorMessage } from "@/components/api-client";
import { queryKeys } from "@/components/queries";
import { agentApiClient } from "./agent-api-client";
import { type AgentRun, type CreateRunBody, isActiveRun } from "./agent-api-types";
import { agentQueryKeys, runsQuery } from "./agent-queries";
import {
  clearedAfterStorageKey,
  messagesForNextRun,
  splitConversation,
} from "./conversation-scope";
import { useStoredValue } from "./use-stored-value";

/** Why the last message was not accepted, shown above the composer. */
export interface SubmitError {
  code: string;
  message: string;
  /** CODING_AGENT_MODEL_UNAVAILABLE: the model that was refused. */
  modelId?: string;
}

function toSubmitError(error: unknown): SubmitError {
  if (error instanceof ApiError) {
    const details = (error.details ?? {}) as { model_id?: unknown };
    return {
      code: error.code,
      message: error.message,
      modelId: typeof details.model_id === "string" ? details.model_id : undefined,
    };
  }
  return { code: "UNKNOWN", message: errorMessage(error) };
}

/**
 * The panel's conversation state: the app's runs (split at the last /clear), sending a message
 * as a new run, stopping the active one, and starting afresh.
 */
export function useAgentConversation(appId: string) {
  const queryClient = useQueryClient();
  const runs = useQuery(runsQuery(appId));
  const [clearedAfter, setClearedAfter] = useStoredValue(clearedAfterStorageKey(appId));
  const [submitError, setSubmitError] = useState<SubmitError | null>(null);
  const [pendingInput, setPendingInput] = useState<string | null>(null);

  const allRuns = runs.data ?? [];
  const { earlier, current } = splitConversation(allRuns, clearedAfter);
  const activeRun = allRuns.find(isActiveRun) ?? null;
  const lastRun = allRuns.at(-1) ?? null;

  const createRun = useMutation({
    mutationFn: (body: CreateRunBody) => agentApiClient.createRun(appId, body),
    onSuccess: (run) => {
      queryClient.setQueryData<AgentRun[]>(agentQueryKeys.runs(appId), (previous) =>
        previous?.some((existing) => existing.id === run.id)
          ? previous
          : [...(previous ?? []), run],
      );
      // The pre-run checkpoint exists now.
      void queryClient.invalidateQueries({ queryKey: queryKeys.checkpoints(appId) });
    },
  });

  const cancelRun = useMutation({
    mutationFn: (runId: string) => agentApiClient.cancelRun(appId, runId),
  });

  /** Starts a run; resolves false (and says why) when the server refuses it. */
  const send = async (
    input: string,
    modelId: string | null,
    engine: { engine: string; approvalPolicy: "ask" | "auto" } = {
      engine: "native",
      approvalPolicy: "ask",
    },
  ): Promise<boolean> => {
    setSubmitError(null);
    setPendingInput(input);
    try {
      await createRun.mutateAsync({
        input,
        model_id: modelId,
        ...(engine.engine === "native"
          ? {}
          : { engine: engine.engine, approval_policy: engine.approvalPolicy }),
        messages: messagesForNextRun(current, clearedAfter !== null),
      });
      return true;
    } catch (error) {
      const refused = toSubmitError(error);
      setSubmitError(refused);
      if (refused.code === "CODING_AGENT_RUN_ACTIVE") {
        void queryClient.invalidateQueries({ queryKey: agentQueryKeys.runs(appId) });
      }
      return false;
    } finally {
      setPendingInput(null);
    }
  };

  const stop = () => {
    if (!activeRun || cancelRun.isPending) return;
    cancelRun.mutate(activeRun.id, {
      onError: (error) => setSubmitError(toSubmitError(error)),
    });
  };

  /** Starts a fresh conversation after the last run; false when there is nothing to clear. */
  const clear = (): boolean => {
    if (!lastRun || current.length === 0) return false;
    setClearedAfter(lastRun.id);
    return true;
  };

  return {
    runs,
    earlier,
    current,
    activeRun,
    lastRun,
    pendingInput,
    submitError,
    setSubmitError,
    send,
    stop,
    stopping: cancelRun.isPending || (cancelRun.isSuccess && cancelRun.variables === activeRun?.id),
    clear,
  };
}
