import "server-only";
import type { DatabaseHandle, Executor } from "@/db/client";
import { getLastEventSeq, listRunsForApp, pauseRun, updateRun } from "@/db/queries/runs";
import type { AgentRunRow, RevisionRow, RunUsage } from "@/db/schema";
import type { EngineRunInput } from "@/lib/agent/engines/engine";
import { getEngine } from "@/lib/agent/engines/registry";
import { getRunEventBus } from "@/lib/agent/events/event-bus";
import type { RunEventPayload } from "@/lib/agent/events/event-payloads";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import {
  RunEventWriter,
  RunNoLongerActive,
  type TransactionEvents,
} from "@/lib/agent/events/run-event-writer";
import {
  openWorkspaceSession,
  type WorkspaceSession,
} from "@/lib/agent/workspace/workspace-session";
import { getEnvironment } from "@/lib/env";
import { logServerError } from "@/lib/log";
import { describeModelEndpoint, estimateCostUsd, refreshProviderSettings } from "@/lib/models";
import { RateLimitReached } from "@/lib/models/rate-limit";
import {
  commitDetachedRevision,
  createCheckpoint,
  diffRevisions,
  type FileChange,
  landRevision,
} from "@/lib/workspace";
import { checkAndFix } from "./check-and-fix";
import { loadConversation } from "./conversation-history";
import { describeRunError } from "./describe-run-error";
import { InactivityWatchdog } from "./inactivity-watchdog";
import { createRunApprovals } from "./run-approvals";
import { getRunDispatcher } from "./run-dispatcher";
import { RunCancelled, RunFailure } from "./run-failure";
import { getLeaseKeeper, processLeaseOwner } from "./run-lease";
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
 * stream never stops it. This process must already hold the run's lease (createRun stores it so
 * in-process; a queue worker claims it); it is renewed here while the run executes, and if it is
 * lost (another process reclaimed the run) the run stops at once.
 */
export function startRunExecution(handle: DatabaseHandle, run: AgentRunRow): Execution {
  const controller = new AbortController();
  const execution: Execution = { runId: run.id, controller, done: Promise.resolve() };
  const keeper = getLeaseKeeper(handle);
  keeper.hold(run.id, () =>
    controller.abort(
      new RunFailure(
        runErrorCodes.interrupted,
        "This server lost the run's lease (it stopped answering for too long) and the run was ended elsewhere; no files were changed.",
      ),
    ),
  );
  execution.done = executeRun(handle, run, controller)
    .catch((error) => logServerError(`run executor for ${run.id} crashed`, error))
    .finally(() => {
      localExecutions().delete(run.id);
      keeper.release(run.id);
    });
  localExecutions().set(run.id, execution);
  return execution;
}

/** Ends a run whose cancel arrived before any process started it. */
export async function finishCancelledBeforeStart(
  handle: DatabaseHandle,
  run: AgentRunRow,
): Promise<void> {
  const writer = await RunEventWriter.continuing(handle, run);
  await writer.finish(
    "run.cancelled",
    { message: "Stopped before it started; no files were changed." },
    { status: "cancelled" },
    { guard: { leaseOwner: processLeaseOwner() } },
  );
}

async function executeRun(
  handle: DatabaseHandle,
  run: AgentRunRow,
  controller: AbortController,
): Promise<void> {
  const environment = getEnvironment();
  const bus = await getRunEventBus(handle);
  // A run resuming after a rate limit kept its work so far in a revision (maybe its base).
  const resumed = run.pausedRevisionId !== null;
  // createRun stored `run.accepted` as seq 1; a resumed run has more.
  const writer = new RunEventWriter(
    handle,
    bus,
    { id: run.id, appId: run.appId },
    resumed ? await getLastEventSeq(handle.db, { runId: run.id }) : 1,
  );
  // Every way this run ends checks it still holds the lease: a run reclaimed by another process
  // must not land anything.
  const guard = { leaseOwner: processLeaseOwner() };
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
    if (resumed)
      await writer.emit("notice", {
        kind: "resumed",
        message: "The rate limit has reset; the run goes on where it stopped.",
        data: {},
      });
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
      // Paused before changing anything, resuming is retrying the same request.
      input:
        resumed && run.pausedRevisionId !== run.baseRevisionId
          ? resumedInput(run.input)
          : run.input,
      conversation: await loadConversation(handle.db, run),
      // A resumed run continues its own engine session where the engine keeps one.
      resumeRef: (resumed ? run.engineRunRef : null) ?? (await previousEngineRunRef(handle, run)),
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
    const hitIterationLimit = result.hitIterationLimit;
    // The revision, its checkpoint, the events announcing them, the run's final state and its
    // terminal event: one transaction, refused if the run is no longer this process's to end.
    await writer.finish(
      "run.completed",
      { result_revision_id: null, usage },
      { status: "completed", outputText, usage },
      {
        guard,
        inside: async (transaction, stage) => {
          const resultRevisionId = await commitRunChanges(transaction, run, changes, stage);
          if (hitIterationLimit) {
            stage.add("notice", {
              kind: "iteration_limit",
              message: `The agent stopped after ${environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS} steps. Its changes so far are saved; ask it to continue if needed.`,
              data: { max_iterations: environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS },
            });
          }
          stage.add("usage", { ...usage });
          let finalText = outputText;
          if (finalText.trim() === "") {
            // The chat must never show an empty reply: say what happened instead.
            finalText = resultRevisionId
              ? "I made the changes shown above."
              : "I finished without changing any files.";
            stage.add("assistant.delta", { text: finalText });
          }
          return {
            payload: { result_revision_id: resultRevisionId },
            runUpdate: { resultRevisionId, outputText: finalText },
          };
        },
      },
    );
  } catch (error) {
    await writer.settled();
    const cancelled =
      RunCancelled.isInstance(error) || RunCancelled.isInstance(controller.signal.reason);
    const rateLimit = cancelled || controller.signal.aborted ? null : RateLimitReached.find(error);
    if (rateLimit && session) {
      const waitS = Math.ceil((rateLimit.resetAt.getTime() - Date.now()) / 1000);
      const maximumWaitS = environment.APPS_CODING_AGENT_MAX_RATE_LIMIT_WAIT_S;
      if (waitS <= maximumWaitS) {
        // The work so far is read before the folder goes; it is kept for the resumed run.
        const { changes } = await session.changes();
        await closeSession(session, run.id);
        if (await pauseForRateLimit(handle, run, writer, changes, rateLimit.resetAt)) return;
      } else {
        await closeSession(session, run.id);
        const message = `The model provider is rate limiting requests until ${rateLimit.resetAt.toISOString()}, longer than the ${maximumWaitS} s a run may wait (APPS_CODING_AGENT_MAX_RATE_LIMIT_WAIT_S); nothing was changed. Try again after that.`;
        await writer.finish(
          "run.failed",
          { code: runErrorCodes.rateLimited, message, reset_at: rateLimit.resetAt.toISOString() },
          {
            status: "failed",
            errorCode: runErrorCodes.rateLimited,
            errorMessage: message,
            outputText,
          },
          { guard },
        );
        return;
      }
    }
    if (session) await closeSession(session, run.id);
    if (cancelled) {
      await writer.finish(
        "run.cancelled",
        { message: "Stopped before finishing; no files were changed." },
        {
          status: "cancelled",
          outputText,
        },
        { guard },
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
      { guard },
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
 * Turns the overlay into one revision and a post-run checkpoint, inside the transaction that ends
 * the run. If the person saved files meanwhile, the store merges three-way; overlapping edits land
 * as a revision of their own (parent = the run's base) and a `merge_conflict` notice names the
 * files, so no run's work is discarded.
 */
async function commitRunChanges(
  transaction: Executor,
  run: AgentRunRow,
  changes: FileChange[],
  stage: TransactionEvents,
): Promise<string | null> {
  if (changes.length === 0) return null;
  const landed = await landRevision(transaction, {
    appId: run.appId,
    baseRevisionId: run.baseRevisionId!,
    changes,
    source: "agent",
    runId: run.id,
    message: revisionMessage(run),
  });
  for (const revision of [landed.separateRevision, landed.draftRevision]) {
    if (revision) await announceRevision(transaction, run, stage, revision);
  }
  if (landed.conflicts.length > 0) {
    const files = landed.conflicts;
    stage.add("notice", {
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
    stage.add("notice", {
      kind: "merged",
      message: `Merged the agent's edits with yours in ${landed.merged.join(", ")}.`,
      data: { files: landed.merged },
    });
  }
  const result = landed.separateRevision ?? landed.draftRevision;
  if (!result) return null;
  const checkpoint = await createCheckpoint(transaction, {
    appId: run.appId,
    revisionId: result.id,
    kind: "post_run",
    runId: run.id,
  });
  const diffStats = await summarizeChanges(
    transaction,
    result.parentRevisionId,
    result.id,
    run.appId,
  );
  stage.add("checkpoint.created", {
    checkpoint_id: checkpoint.id,
    revision_id: result.id,
    kind: "post_run",
    files_changed: diffStats.files,
    additions: diffStats.additions,
    deletions: diffStats.deletions,
  });
  return result.id;
}

function revisionMessage(run: AgentRunRow): string {
  return `Agent: ${run.input.length > 72 ? `${run.input.slice(0, 71)}…` : run.input}`;
}

/**
 * Pauses the run at a rate limit, in one transaction: its work so far kept as a revision off the
 * draft head, the run `waiting` until `resetAt` without a lease, its resumption scheduled, and a
 * `notice` the panel counts down from. False when the run was no longer this process's.
 */
async function pauseForRateLimit(
  handle: DatabaseHandle,
  run: AgentRunRow,
  writer: RunEventWriter,
  changes: FileChange[],
  resetAt: Date,
): Promise<boolean> {
  const dispatcher = getRunDispatcher(handle);
  let pausedRevisionId = run.baseRevisionId!;
  const paused = await writer.commitEvents(async (transaction, stage) => {
    if (changes.length > 0) {
      const { revision } = await commitDetachedRevision(transaction, {
        appId: run.appId,
        baseRevisionId: run.baseRevisionId!,
        changes,
        source: "agent",
        runId: run.id,
        message: `${revisionMessage(run)} (paused at a rate limit)`,
      });
      pausedRevisionId = revision.id;
    }
    const owned = await pauseRun(transaction, {
      id: run.id,
      owner: processLeaseOwner(),
      resumeAt: resetAt,
      pausedRevisionId,
    });
    if (!owned) throw new RunNoLongerActive();
    await dispatcher.enqueue(transaction, { runId: run.id, runAt: resetAt });
    const waitS = Math.max(0, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
    stage.add("notice", {
      kind: "rate_limited",
      message: `The model provider is rate limiting requests. The run waits and goes on by itself at ${resetAt.toISOString().slice(11, 19)} UTC (in ${waitS} s); Stop cancels it.`,
      data: { reset_at: resetAt.toISOString(), wait_s: waitS },
    });
  });
  if (paused)
    dispatcher.committed({ ...run, status: "waiting", pausedRevisionId }, { runAt: resetAt });
  return paused;
}

/** What a resumed engine is told: the same request, and that its earlier work is in place. */
function resumedInput(input: string): string {
  return `${input}\n\n(You were paused by the model provider's rate limit and are now resuming. Your changes so far are already in the workspace: look at the files, then finish the request.)`;
}

async function announceRevision(
  transaction: Executor,
  run: AgentRunRow,
  stage: TransactionEvents,
  revision: RevisionRow,
): Promise<void> {
  const diffStats = await summarizeChanges(
    transaction,
    revision.parentRevisionId,
    revision.id,
    run.appId,
  );
  stage.add("revision.created", {
    revision_id: revision.id,
    parent_revision_id: revision.parentRevisionId,
    files_changed: diffStats.files,
    additions: diffStats.additions,
    deletions: diffStats.deletions,
  });
}

async function summarizeChanges(db: Executor, fromId: string | null, toId: string, appId: string) {
  const diff = await diffRevisions(db, {
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
