"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
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

/** How a message is sent: the engine and its approval policy. */
export interface SendOptions {
  engine: string;
  approvalPolicy: "ask" | "auto";
}

/** A message typed while a run was going, sent as the next run when that one ends. */
export interface QueuedMessage {
  id: string;
  input: string;
  modelId: string | null;
  options: SendOptions;
}

/**
 * The panel's conversation state: the app's runs (split at the last /clear), sending a message
 * as a new run, stopping the active one, and starting afresh.
 */
export function useAgentConversation(
  appId: string,
  {
    onQueuedRefused,
  }: {
    /** A queued message the server refused when its turn came: give the words back. */
    onQueuedRefused?: (message: QueuedMessage) => void;
  } = {},
) {
  const queryClient = useQueryClient();
  const runs = useQuery(runsQuery(appId));
  const [clearedAfter, setClearedAfter] = useStoredValue(clearedAfterStorageKey(appId));
  const [submitError, setSubmitError] = useState<SubmitError | null>(null);
  const [pendingInput, setPendingInput] = useState<string | null>(null);
  const [queue, setQueue] = useState<QueuedMessage[]>([]);

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
    engine: SendOptions = { engine: "native", approvalPolicy: "ask" },
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

  /** Keeps a message for when the active run ends; shown as queued until then. */
  const enqueue = (input: string, modelId: string | null, options: SendOptions) => {
    setQueue((current) => [
      ...current,
      { id: `${Date.now()}-${current.length}`, input, modelId, options },
    ]);
  };

  const removeQueued = (id: string) =>
    setQueue((current) => current.filter((message) => message.id !== id));

  // When the run ends (and nothing else is on its way), the oldest queued message goes out.
  const sendReference = useRef(send);
  sendReference.current = send;
  const refusedReference = useRef(onQueuedRefused);
  refusedReference.current = onQueuedRefused;
  const next = queue[0];
  const readyForNext =
    next !== undefined && runs.isSuccess && activeRun === null && pendingInput === null;
  useEffect(() => {
    if (!readyForNext || !next) return;
    setQueue((current) => current.filter((message) => message.id !== next.id));
    void sendReference.current(next.input, next.modelId, next.options).then((accepted) => {
      if (!accepted) refusedReference.current?.(next);
    });
  }, [readyForNext, next]);

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
    queue,
    enqueue,
    removeQueued,
    submitError,
    setSubmitError,
    send,
    stop,
    stopping: cancelRun.isPending || (cancelRun.isSuccess && cancelRun.variables === activeRun?.id),
    clear,
  };
}
