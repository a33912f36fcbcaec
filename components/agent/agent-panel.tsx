"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Bot, CircleAlert, History, Info, SquarePen, X } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "@/components/api-client";
import type { Checkpoint } from "@/components/api-types";
import { checkpointsQuery } from "@/components/queries";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import { modelsQuery } from "./agent-queries";
import { CheckpointsPopover } from "./checkpoints-popover";
import { Composer } from "./composer";
import { withContext } from "./composer-context";
import { ConversationView } from "./conversation-view";
import { EmptyConversation } from "./empty-conversation";
import { type ApprovalPolicyChoice, EngineMenu } from "./engine-menu";
import { anyModelAvailable, autoModelId, modelStorageKey, requestedModelId } from "./model-choice";
import { ModelPicker } from "./model-picker";
import { NoModelNotice } from "./no-model-notice";
import { RestoreCheckpointDialog } from "./restore-checkpoint-dialog";
import { RunDiffDialog, type RunDiffTarget } from "./run-diff-dialog";
import { parseSlashCommand } from "./slash-commands";
import { useAgentConversation } from "./use-agent-conversation";
import { useStoredValue } from "./use-stored-value";

interface RestoreRequest {
  checkpoint: Checkpoint;
  title: string;
}

/**
 * The agent chat for one app, as the workspace's right-hand column: the conversation with
 * streaming replies and tool rows, the composer with the model picker, checkpoints and diffs.
 * Its height is the column's: long conversations scroll inside it and never grow the page.
 */
export function AgentPanel({
  appId,
  className,
  request,
}: {
  appId: string;
  className?: string;
  /** Words to send as a message from elsewhere in the workspace (Fix with agent); `id` repeats it. */
  request?: { id: number; text: string } | null;
}) {
  const queryClient = useQueryClient();
  const [seed, setSeed] = useState<{ text: string } | null>(null);
  const conversation = useAgentConversation(appId, {
    onQueuedRefused: (message) => setSeed({ text: message.input }),
  });
  const models = useQuery(modelsQuery());
  const [storedModel, setStoredModel] = useStoredValue(modelStorageKey(appId));
  const modelChoice = storedModel ?? autoModelId;
  const [storedEngine, setStoredEngine] = useStoredValue(`patchwork:engine:${appId}`);
  const [storedPolicy, setStoredPolicy] = useStoredValue(`patchwork:approval-policy:${appId}`);
  const engineChoice = storedEngine ?? "native";
  const policyChoice: ApprovalPolicyChoice = storedPolicy === "auto" ? "auto" : "ask";
  const [showEarlier, setShowEarlier] = useState(false);
  const [checkpointsOpen, setCheckpointsOpen] = useState(false);
  const [restoreRequest, setRestoreRequest] = useState<RestoreRequest | null>(null);
  const [diffTarget, setDiffTarget] = useState<RunDiffTarget | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const noModel = models.isSuccess && !anyModelAvailable(models.data);
  const running = conversation.activeRun !== null;
  // Esc stops a run, as in a terminal; not while a dialog (which Esc closes) is open.
  const stopRun = conversation.stop;
  useEffect(() => {
    if (!running) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"], dialog[open]')) return;
      event.preventDefault();
      stopRun();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [running, stopRun]);
  const { setSubmitError } = conversation;

  const closeCheckpoints = useCallback(() => setCheckpointsOpen(false), []);

  const undo = async () => {
    const lastRun = conversation.lastRun;
    if (!lastRun) return setNote("There is no run to undo yet.");
    if (running) return setNote("Stop the current run before undoing.");
    let checkpoints: Checkpoint[];
    try {
      checkpoints = await queryClient.fetchQuery({ ...checkpointsQuery(appId), staleTime: 0 });
    } catch (error) {
      setSubmitError({ code: "UNDO_FAILED", message: errorMessage(error) });
      return;
    }
    const before = checkpoints.find(
      (checkpoint) => checkpoint.kind === "pre_run" && checkpoint.run_id === lastRun.id,
    );
    if (!before) return setNote("The last run changed nothing, so there is nothing to undo.");
    setRestoreRequest({ checkpoint: before, title: "Undo the last run?" });
  };

  const submit = async (text: string, attachments: string[]): Promise<boolean> => {
    setNote(null);
    setSubmitError(null);
    const command = parseSlashCommand(text);
    if (command?.kind === "unknown") {
      setSubmitError({
        code: "UNKNOWN_COMMAND",
        message: `There is no /${command.name} command. Try /undo or /clear.`,
      });
      return false;
    }
    if (command?.name === "undo") {
      await undo();
      return true;
    }
    if (command?.name === "clear") {
      setShowEarlier(false);
      setNote(
        conversation.clear()
          ? "Started a new conversation. The agent won’t see the earlier messages; they’re still above."
          : "The conversation is already empty.",
      );
      return true;
    }
    const options = { engine: engineChoice, approvalPolicy: policyChoice };
    const input = withContext(text, attachments);
    if (running || conversation.queue.length > 0) {
      conversation.enqueue(input, requestedModelId(modelChoice), options);
      return true;
    }
    return conversation.send(input, requestedModelId(modelChoice), options);
  };

  const error = conversation.submitError;

  // A request from the workspace is sent like a typed message (queued if a run is going).
  const submitReference = useRef(submit);
  submitReference.current = submit;
  const handledRequest = useRef<number | null>(null);
  useEffect(() => {
    if (!request || handledRequest.current === request.id || conversation.runs.isPending) return;
    handledRequest.current = request.id;
    void submitReference.current(request.text, []);
  }, [request, conversation.runs.isPending]);

  return (
    <aside
      aria-label="Agent"
      className={cn(
        "relative flex min-h-0 w-[26rem] shrink-0 flex-col overflow-hidden border-l border-zinc-200 bg-white",
        className,
      )}
      data-testid="agent-panel"
    >
      <header className="flex h-10 shrink-0 items-center gap-1 border-b border-zinc-200 pr-1.5 pl-3">
        <Bot className="size-3.5 text-zinc-400" aria-hidden="true" />
        <h2 className="text-xs font-medium text-zinc-600">Agent</h2>
        <div className="ml-auto flex items-center gap-0.5">
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label="New conversation"
            title="New conversation (/clear)"
            disabled={conversation.current.length === 0}
            onClick={() => void submit("/clear", [])}
            data-testid="agent-new-conversation"
          >
            <SquarePen />
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={checkpointsOpen}
            onClick={() => setCheckpointsOpen((open) => !open)}
            data-testid="agent-open-checkpoints"
          >
            <History aria-hidden="true" />
            Checkpoints
          </Button>
        </div>
      </header>

      <div className="relative flex min-h-0 flex-1 flex-col">
        {conversation.runs.isPending ? (
          <div className="flex flex-1 items-center justify-center">
            <Spinner label="Loading the conversation" />
          </div>
        ) : conversation.runs.isError ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
            <p role="alert" className="text-sm text-rose-600">
              {errorMessage(conversation.runs.error)}
            </p>
            <Button size="sm" onClick={() => void conversation.runs.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <ConversationView
            appId={appId}
            earlierRuns={conversation.earlier}
            showEarlier={showEarlier}
            onShowEarlier={() => setShowEarlier(true)}
            runs={conversation.current}
            pendingInput={conversation.pendingInput}
            queued={conversation.queue}
            onRemoveQueued={conversation.removeQueued}
            onOpenDiff={setDiffTarget}
            onRetry={
              running
                ? undefined
                : (run) =>
                    void conversation.send(run.input, run.requested_model_id, {
                      engine: run.execution_engine,
                      approvalPolicy: run.approval_policy,
                    })
            }
            empty={
              noModel ? (
                <NoModelNotice
                  checking={models.isFetching}
                  onCheckAgain={() => void models.refetch()}
                />
              ) : (
                <EmptyConversation onPick={(text) => setSeed({ text })} />
              )
            }
          />
        )}
        {checkpointsOpen ? (
          <CheckpointsPopover
            appId={appId}
            restoreDisabledReason={running ? "Stop the current run before restoring." : null}
            onRestore={(checkpoint) =>
              setRestoreRequest({ checkpoint, title: "Restore this checkpoint?" })
            }
            onClose={closeCheckpoints}
          />
        ) : null}
      </div>

      <div className="shrink-0 space-y-2 px-3 pt-1 pb-3">
        {error ? (
          <div
            role="alert"
            className="flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2 text-xs leading-relaxed text-rose-700"
            data-testid={
              error.code === "CODING_AGENT_MODEL_UNAVAILABLE" ? "agent-model-error" : "agent-error"
            }
          >
            <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            <div className="min-w-0 flex-1">
              <p>{error.message}</p>
              {error.code === "CODING_AGENT_MODEL_UNAVAILABLE" && modelChoice !== autoModelId ? (
                <button
                  type="button"
                  className="mt-1 cursor-pointer font-medium underline underline-offset-2"
                  onClick={() => {
                    setStoredModel(null);
                    setSubmitError(null);
                  }}
                >
                  Use Auto instead
                </button>
              ) : null}
            </div>
            <button
              type="button"
              aria-label="Dismiss"
              className="cursor-pointer rounded p-0.5 text-rose-400 hover:text-rose-700"
              onClick={() => setSubmitError(null)}
            >
              <X className="size-3.5" aria-hidden="true" />
            </button>
          </div>
        ) : null}
        {noModel && conversation.current.length > 0 ? (
          <p
            className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-xs leading-relaxed text-amber-800"
            data-testid="agent-no-model-inline"
          >
            <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            <span>
              No model is configured any more.{" "}
              <Link href="/settings" className="font-medium underline underline-offset-2">
                Add a provider in Settings
              </Link>
              , set OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY or
              OPENAI_COMPATIBLE_BASE_URL and restart, or start Ollama.
            </span>
          </p>
        ) : null}
        {note ? (
          <p
            className="flex items-start gap-2 px-1 text-xs leading-relaxed text-zinc-500"
            role="status"
            data-testid="agent-note"
          >
            <Info className="mt-0.5 size-3.5 shrink-0 text-zinc-400" aria-hidden="true" />
            {note}
          </p>
        ) : null}
        <Composer
          appId={appId}
          running={running}
          stopping={conversation.stopping}
          disabled={noModel}
          disabledReason={noModel ? "No model is configured." : undefined}
          onSubmit={submit}
          onStop={conversation.stop}
          seed={seed}
          footer={
            <div className="flex flex-wrap items-center gap-2">
              <ModelPicker
                models={models.data}
                value={modelChoice}
                onChange={(modelId) => {
                  setStoredModel(modelId === autoModelId ? null : modelId);
                  if (error?.code === "CODING_AGENT_MODEL_UNAVAILABLE") setSubmitError(null);
                }}
                disabled={noModel}
              />
              <EngineMenu
                modelId={modelChoice}
                value={engineChoice}
                onChange={(engine) => setStoredEngine(engine === "native" ? null : engine)}
                policy={policyChoice}
                onPolicyChange={(policy) => setStoredPolicy(policy === "ask" ? null : policy)}
                disabled={running}
              />
            </div>
          }
        />
      </div>

      <RestoreCheckpointDialog
        appId={appId}
        checkpoint={restoreRequest?.checkpoint ?? null}
        title={restoreRequest?.title}
        onClose={() => setRestoreRequest(null)}
        onRestored={(checkpoint) => {
          setCheckpointsOpen(false);
          setNote(
            checkpoint.kind === "pre_run"
              ? "Restored the draft to how it was before that run."
              : "Restored the checkpoint. The previous version is still in the history.",
          );
        }}
      />
      <RunDiffDialog appId={appId} target={diffTarget} onClose={() => setDiffTarget(null)} />
    </aside>
  );
}
