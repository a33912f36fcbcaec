import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { listRunsForApp, updateRun } from "@/db/queries/runs";
import type { AgentRunRow, RevisionRow, RunUsage } from "@/db/schema";
import type { EngineRunInput } from "@/lib/agent/engines/engine";
import { getEngine } from "@/lib/agent/engines/registry";
import { getRunEventBus } from "@/lib/agent/events/event-bus";
import type { RunEventPayload } from "@/lib/agent/events/event-payloads";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { RunEventWriter } from "@/lib/agent/events/run-event-writer";
import {
  openWorkspaceSession,
  type WorkspaceSession,
} from "@/lib/agent/workspace/workspace-session";
import { getEnvironment } from "@/lib/env";
import { logServerError } from "@/lib/log";
import { describeModelEndpoint, estimateCostUsd, refreshProviderSettings } from "@/lib/models";
import { createCheckpoint, diffRevisions, type FileChange, landRevision } from "@/lib/workspace";
import { checkAndFix } from "./check-and-fix";
import { loadConversation } from "./conversation-history";
import { describeRunError } from "./describe-run-error";
import { InactivityWatchdog } from "./inactivity-watchdog";
import { createRunApprovals } from "./run-approvals";
import { RunCancelled, RunFailure } from "./run-failure";
import { getRunLocks } from "./run-locks";
import { createRunSink } from "./run-sink";

interface Execution {
  runId: string;
  controller: AbortController;
  done: Promise<void>;
}

const registryKey = Symbol.for("patchwork.runExecutions");
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, Execution> };

/** Runs executing in this process, by id (shared across Next.js module copies). */
export function localExecutions(): Map<string, Execution> {
  const holder = globalThis as GlobalWithRegistry;
  holder[registryKey] ??= new Map();
  return holder[registryKey];
}

/**
 * Starts a run in the background of this process — not tied to any HTTP request, so closing the
 * stream never stops it. The run's lock must already be held (createRun takes it).
 */
export function startRunExecution(handle: DatabaseHandle, run: AgentRunRow): Execution {
  const controller = new AbortController();
  const execution: Execution = { runId: run.id, controller, done: Promise.resolve() };
  execution.done = executeRun(handle, run, controller)
    .catch((error) => logServerError(`run executor for ${run.id} crashed`, error))
    .finally(async () => {
      localExecutions().delete(run.id);
      await getRunLocks(handle)
        .release(run.id)
        .catch((error) => logServerError(`could not release the lock of run ${run.id}`, error));
    });
  localExecutions().set(run.id, execution);
  return execution;
}

async function executeRun(
  handle: DatabaseHandle,
  run: AgentRunRow,
  controller: AbortController,
): Promise<void> {
  const environment = getEnvironment();
  const bus = await getRunEventBus(handle);
  // createRun stored the run as running with `run.accepted` as seq 1.
  const writer = new RunEventWriter(handle, bus, { id: run.id, appId: run.appId }, 1);
  const unsubscribe = bus.subscribeCancel((runId) => {
    if (runId === run.id) controller.abort(new RunCancelled());
  });
  const runTimeoutMs = environment.APPS_CODING_AGENT_RUN_TIMEOUT_S * 1000;
  const maxCostUsd = environment.APPS_CODING_AGENT_MAX_COST_USD;
  const runTimer = setTimeout(
    () =>
      controller.abort(
        new RunFailure(
          runErrorCodes.budgetExceeded,
          `The run did not finish within ${environment.APPS_CODING_AGENT_RUN_TIMEOUT_S} s, so it was stopped; nothing was changed.`,
        ),
      ),
    runTimeoutMs,
  );
  let session: WorkspaceSession | null = null;
  let watchdog: InactivityWatchdog | null = null;
  let outputText = "";
  try {
    if (!run.baseRevisionId || !run.resolvedModelId)
      throw new Error("run is missing its base revision or model");
    const engine = getEngine(run.executionEngine);
    if (!engine) {
      throw new RunFailure(
        runErrorCodes.engineUnavailable,
        `The ${run.executionEngine} engine is not available on this server.`,
      );
    }
    session = await openWorkspaceSession(handle, run, engine.workspaceForm);
    // External engines get the executor's watchdog; the native agent has its own, finer one.
    const inactivityS = environment.APPS_CODING_AGENT_TOOL_TIMEOUT_S;
    watchdog =
      engine.workspaceForm === "folder"
        ? new InactivityWatchdog(inactivityS * 1000, () =>
            controller.abort(
              new RunFailure(
                runErrorCodes.modelTimeout,
                `${engine.label} sent nothing for ${inactivityS} s, so the run was stopped; nothing was changed.`,
              ),
            ),
          )
        : null;
    const sink = createRunSink({
      handle,
      run,
      writer,
      onActivity: () => watchdog?.touch(),
      requestApproval: createRunApprovals({
        handle,
        bus,
        run,
        writer,
        signal: controller.signal,
        timeoutMs: environment.APPS_CODING_AGENT_APPROVAL_TIMEOUT_S * 1000,
        onWaitStart: () => watchdog?.pause(),
        onWaitEnd: () => watchdog?.resume(),
      }),
      recordProcess: async (pid) => {
        await updateRun(handle.db, { id: run.id, enginePid: pid });
      },
      onLoop: (message) => {
        if (!controller.signal.aborted) {
          controller.abort(new RunFailure(runErrorCodes.loopDetected, message));
        }
      },
      // Every engine's usage reports go through the sink: the run stops at the cost cap.
      onUsage: (usage) => {
        const cost = knownCostUsd(run.resolvedModelId ?? "", usage);
        if (cost !== null && cost > maxCostUsd && !controller.signal.aborted) {
          controller.abort(budgetExceeded(maxCostUsd, cost));
        }
      },
    });
    // The model's provider may have been saved from the settings page, perhaps by another process.
    await refreshProviderSettings({ db: handle.db });
    const engineInput: EngineRunInput = {
      run,
      model: describeModelEndpoint(run.resolvedModelId),
      input: run.input,
      conversation: await loadConversation(handle.db, run),
      resumeRef: await previousEngineRunRef(handle, run),
      workspace: session.workspace,
      approvalPolicy: run.approvalPolicy,
      signal: controller.signal,
      limits: {
        maxIterations: environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS,
        inactivityTimeoutMs: environment.APPS_CODING_AGENT_TOOL_TIMEOUT_S * 1000,
        runTimeoutMs,
        maxCostUsd,
      },
    };
    let result = await engine.run(engineInput, sink);
    outputText = result.text;
    if (controller.signal.aborted) throw controller.signal.reason ?? new RunCancelled();
    await sink.flush();
    if (environment.APPS_CODING_AGENT_AUTO_VERIFY) {
      result = await checkAndFix({
        handle,
        run,
        engine,
        engineInput,
        sink,
        writer,
        session,
        attempts: environment.APPS_CODING_AGENT_VERIFY_ATTEMPTS,
        result,
        whileChecking: { start: () => watchdog?.pause(), end: () => watchdog?.resume() },
      });
      outputText = result.text;
      if (controller.signal.aborted) throw controller.signal.reason ?? new RunCancelled();
    }

    const { changes, refused } = await session.changes();
    // The changes are in memory now: the folder goes before the run is reported ended.
    await closeSession(session, run.id);
    if (refused.length > 0) {
      await writer.emit("notice", {
        kind: "files_refused",
        message: `${refused.length === 1 ? "One file was" : `${refused.length} files were`} not saved: ${refused
          .slice(0, 5)
          .map((entry) => `${entry.path} (${entry.reason})`)
          .join("; ")}${refused.length > 5 ? "; …" : ""}.`,
        data: { paths: refused.slice(0, 50) },
      });
    }
    const resultRevisionId = await commitRunChanges(handle, run, changes, writer);
    if (result.hitIterationLimit) {
      await writer.emit("notice", {
        kind: "iteration_limit",
        message: `The agent stopped after ${environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS} steps. Its changes so far are saved; ask it to continue if needed.`,
        data: { max_iterations: environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS },
      });
    }
    const usage: RunUsage = {
      ...result.usage,
      total_cost_usd:
        result.usage.total_cost_usd ??
        estimateCostUsd(run.resolvedModelId, {
          inputTokens: result.usage.input_tokens,
          outputTokens: result.usage.output_tokens,
          inputTokenDetails: {
            cacheReadTokens: result.usage.cache_read_input_tokens,
            cacheWriteTokens: result.usage.cache_creation_input_tokens,
          },
        }),
    };
    await writer.emit("usage", { ...usage });
    if (outputText.trim() === "") {
      // The chat must never show an empty reply: say what happened instead.
      outputText = resultRevisionId
        ? "I made the changes shown above."
        : "I finished without changing any files.";
      await writer.emit("assistant.delta", { text: outputText });
    }
    await writer.finish(
      "run.completed",
      { result_revision_id: resultRevisionId, usage },
      { status: "completed", resultRevisionId, outputText, usage },
    );
  } catch (error) {
    await writer.settled();
    if (session) await closeSession(session, run.id);
    if (RunCancelled.isInstance(error) || RunCancelled.isInstance(controller.signal.reason)) {
      await writer.finish(
        "run.cancelled",
        { message: "Stopped before finishing; no files were changed." },
        {
          status: "cancelled",
          outputText,
        },
      );
      return;
    }
    // A watchdog's reason names what happened better than the abort error it caused.
    const reason = RunFailure.isInstance(controller.signal.reason)
      ? controller.signal.reason
      : error;
    const { code, message } = describeRunError(reason);
    await writer.finish(
      "run.failed",
      { code, message },
      { status: "failed", errorCode: code, errorMessage: message, outputText },
    );
  } finally {
    clearTimeout(runTimer);
    watchdog?.dispose();
    unsubscribe();
    // Idempotent: already closed on the ways out above; this covers any other.
    if (session) await closeSession(session, run.id);
  }
}

async function closeSession(session: WorkspaceSession, runId: string): Promise<void> {
  await session
    .close()
    .catch((error) => logServerError(`could not remove the workspace of run ${runId}`, error));
}

/**
 * Turns the overlay into one revision and a post-run checkpoint. If the person saved files
 * meanwhile, the store merges three-way; overlapping edits land as a revision of their own (parent
 * = the run's base) and a `merge_conflict` notice names the files, so no run's work is discarded.
 */
async function commitRunChanges(
  handle: DatabaseHandle,
  run: AgentRunRow,
  changes: FileChange[],
  writer: RunEventWriter,
): Promise<string | null> {
  if (changes.length === 0) return null;
  const message = `Agent: ${run.input.length > 72 ? `${run.input.slice(0, 71)}…` : run.input}`;
  const landed = await landRevision(handle.db, {
    appId: run.appId,
    baseRevisionId: run.baseRevisionId!,
    changes,
    source: "agent",
    runId: run.id,
    message,
  });
  for (const revision of [landed.separateRevision, landed.draftRevision]) {
    if (revision) await announceRevision(handle, run, writer, revision);
  }
  if (landed.conflicts.length > 0) {
    const files = landed.conflicts;
    await writer.emit("notice", {
      kind: "merge_conflict",
      message: `You changed ${files.join(", ")} while the agent was editing ${files.length === 1 ? "it" : "them"}. The draft keeps your version; the agent's version is saved as its own revision, which you can open as a diff or restore.`,
      data: {
        files,
        merged_files: landed.merged,
        run_revision_id: landed.separateRevision!.id,
        draft_revision_id: landed.draftRevision?.id ?? null,
      },
    });
  } else if (landed.merged.length > 0) {
    await writer.emit("notice", {
      kind: "merged",
      message: `Merged the agent's edits with yours in ${landed.merged.join(", ")}.`,
      data: { files: landed.merged },
    });
  }
  const result = landed.separateRevision ?? landed.draftRevision;
  if (!result) return null;
  const checkpoint = await createCheckpoint(handle.db, {
    appId: run.appId,
    revisionId: result.id,
    kind: "post_run",
    runId: run.id,
  });
  const diffStats = await summarizeChanges(handle, result.parentRevisionId, result.id, run.appId);
  await writer.emit("checkpoint.created", {
    checkpoint_id: checkpoint.id,
    revision_id: result.id,
    kind: "post_run",
    files_changed: diffStats.files,
    additions: diffStats.additions,
    deletions: diffStats.deletions,
  });
  return result.id;
}

async function announceRevision(
  handle: DatabaseHandle,
  run: AgentRunRow,
  writer: RunEventWriter,
  revision: RevisionRow,
): Promise<void> {
  const diffStats = await summarizeChanges(
    handle,
    revision.parentRevisionId,
    revision.id,
    run.appId,
  );
  await writer.emit("revision.created", {
    revision_id: revision.id,
    parent_revision_id: revision.parentRevisionId,
    files_changed: diffStats.files,
    additions: diffStats.additions,
    deletions: diffStats.deletions,
  });
}

async function summarizeChanges(
  handle: DatabaseHandle,
  fromId: string | null,
  toId: string,
  appId: string,
) {
  const diff = await diffRevisions(handle.db, {
    appId,
    revisionId: toId,
    againstRevisionId: fromId,
  });
  return {
    files: diff.files.map((file) => ({
      path: file.path,
      status: file.status,
      additions: file.additions,
      deletions: file.deletions,
    })),
    additions: diff.additions,
    deletions: diff.deletions,
  };
}

/** The thread or session id the app's previous run on the same engine left, to continue it. */
async function previousEngineRunRef(
  handle: DatabaseHandle,
  run: AgentRunRow,
): Promise<string | null> {
  if (run.executionEngine === "native") return null;
  const earlier = await listRunsForApp(handle.db, { appId: run.appId, limit: 20 });
  const previous = earlier.findLast(
    (candidate) =>
      candidate.id !== run.id &&
      candidate.createdAt <= run.createdAt &&
      candidate.executionEngine === run.executionEngine &&
      candidate.engineRunRef,
  );
  return previous?.engineRunRef ?? null;
}

/** The run's cost so far: what the engine reported, else priced from our table (null: unknown). */
export function knownCostUsd(modelId: string, usage: RunEventPayload<"usage">): number | null {
  return (
    usage.total_cost_usd ??
    estimateCostUsd(modelId, {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      inputTokenDetails: {
        cacheReadTokens: usage.cache_read_input_tokens,
        cacheWriteTokens: usage.cache_creation_input_tokens,
      },
    })
  );
}

/** The failure of a run stopped at its cost cap; its changes are not committed. */
export function budgetExceeded(maxCostUsd: number, costUsd: number): RunFailure {
  return new RunFailure(
    runErrorCodes.budgetExceeded,
    `The run reached its cost cap: about $${costUsd.toFixed(2)} spent, more than the $${maxCostUsd.toFixed(2)} allowed (APPS_CODING_AGENT_MAX_COST_USD), so it was stopped; nothing was changed.`,
  );
}
