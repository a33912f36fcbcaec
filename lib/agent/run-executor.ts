import "server-only";
import type { DatabaseHandle } from "@/db/client";
import type { AgentRunRow, RevisionRow, RunUsage } from "@/db/schema";
import { getEnvironment } from "@/lib/env";
import { logServerError } from "@/lib/log";
import { estimateCostUsd, getLanguageModel } from "@/lib/models";
import { buildPreview } from "@/lib/preview";
import { createCheckpoint, diffRevisions, landRevision } from "@/lib/workspace";
import { loadConversation } from "./conversation-history";
import { describeRunError } from "./describe-run-error";
import { getRunEventBus } from "./event-bus";
import { runNativeAgent } from "./native-agent";
import { RunEventWriter } from "./run-event-writer";
import { RunCancelled } from "./run-failure";
import { getRunLocks } from "./run-locks";
import { buildSystemPrompt } from "./system-prompt";
import type { ToolContext, VerificationResult } from "./tools";
import { typeCheckWorkspace } from "./type-check";
import { WorkspaceOverlay } from "./workspace-overlay";

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
  let outputText = "";
  try {
    if (!run.baseRevisionId || !run.resolvedModelId)
      throw new Error("run is missing its base revision or model");
    const modelId = run.resolvedModelId;
    const overlay = await WorkspaceOverlay.open(handle.db, {
      appId: run.appId,
      revisionId: run.baseRevisionId,
    });
    let verifications = 0;
    const context: ToolContext = {
      overlay,
      patchFailures: new Map(),
      writeFileUnlocked: new Set(),
      legacyWriteFileEnabled: environment.APPS_CODING_AGENT_ENABLE_LEGACY_WRITE_FILE,
      autoVerifyPatch: environment.APPS_CODING_AGENT_AUTO_VERIFY_PATCH,
      verify: async (): Promise<VerificationResult> => {
        verifications += 1;
        const started = performance.now();
        const files = await overlay.snapshot();
        const [build, typeErrors] = await Promise.all([
          buildPreview({ key: `run:${run.id}:verify:${verifications}`, appId: run.appId, files }),
          typeCheckWorkspace(files),
        ]);
        const diagnostics = [...build.diagnostics, ...typeErrors];
        return {
          ok: build.ok && typeErrors.length === 0,
          diagnostics,
          duration_ms: Math.round(performance.now() - started),
        };
      },
    };
    const { appName, messages } = await loadConversation(handle.db, run);
    const result = await runNativeAgent({
      createModel: ({ fetch, textTap }) =>
        getLanguageModel(modelId, { fetch: rateLimitObserver(writer, fetch), textTap }),
      system: buildSystemPrompt({
        appName,
        writeFileAvailable: environment.APPS_CODING_AGENT_ENABLE_LEGACY_WRITE_FILE,
      }),
      messages,
      context,
      writer,
      signal: controller.signal,
      maxIterations: environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS,
      toolTimeoutMs: environment.APPS_CODING_AGENT_TOOL_TIMEOUT_S * 1000,
    });
    outputText = result.text;
    if (controller.signal.aborted) throw new RunCancelled();

    const resultRevisionId = await commitRunChanges(handle, run, overlay, writer);
    if (result.hitIterationLimit) {
      await writer.emit("notice", {
        kind: "iteration_limit",
        message: `The agent stopped after ${environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS} steps. Its changes so far are saved; ask it to continue if needed.`,
        data: { max_iterations: environment.APPS_CODING_AGENT_MAX_TOOL_ITERATIONS },
      });
    }
    const usage: RunUsage = {
      ...result.usage,
      total_cost_usd: estimateCostUsd(run.resolvedModelId, {
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
    const { code, message } = describeRunError(error);
    await writer.finish(
      "run.failed",
      { code, message },
      { status: "failed", errorCode: code, errorMessage: message, outputText },
    );
  } finally {
    unsubscribe();
  }
}

/**
 * Turns the overlay into one revision and a post-run checkpoint. If the person saved files
 * meanwhile, the store merges three-way; overlapping edits land as a revision of their own (parent
 * = the run's base) and a `merge_conflict` notice names the files, so no run's work is discarded.
 */
async function commitRunChanges(
  handle: DatabaseHandle,
  run: AgentRunRow,
  overlay: WorkspaceOverlay,
  writer: RunEventWriter,
): Promise<string | null> {
  const changes = await overlay.changes();
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

/**
 * Wraps fetch to tell the person when the provider rate-limits: the AI SDK retries on its own
 * (honouring retry-after), and without this the run would just look stuck.
 */
function rateLimitObserver(
  writer: RunEventWriter,
  fetch: typeof globalThis.fetch,
): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get("retry-after"));
      const resetAt =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? new Date(Date.now() + retryAfter * 1000).toISOString()
          : null;
      await writer.emit("notice", {
        kind: "rate_limit",
        message: resetAt
          ? `The model provider is rate limiting; retrying after ${retryAfter} s.`
          : "The model provider is rate limiting; retrying shortly.",
        data: { reset_at: resetAt, status: 429 },
      });
    }
    return response;
  };
}
