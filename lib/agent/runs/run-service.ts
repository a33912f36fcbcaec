import "server-only";
import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "@/db/client";
import { getAppForUpdate } from "@/db/queries/apps";
import { insertCheckpoint } from "@/db/queries/checkpoints";
import {
  getActiveRunForApp,
  getAppRun,
  insertRun,
  insertRunEvent,
  requestRunCancel,
} from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import { preflightEngine, preflightEngineModel } from "@/lib/agent/engines/registry";
import { getRunEventBus } from "@/lib/agent/events/event-bus";
import { PatchworkError } from "@/lib/errors";
import { describeModelEndpoint, refreshProviderSettings, resolveModel } from "@/lib/models";
import { RunEventWriter } from "@/lib/agent/events/run-event-writer";
import { getRunDispatcher } from "./run-dispatcher";
import { localExecutions } from "./run-executor";
import { RunCancelled } from "./run-failure";
import { leaseSeconds, processLeaseOwner } from "./run-lease";
import { removeRunJob } from "./run-queue";

export interface CreateRunInput {
  appId: string;
  input: string;
  messages?: { role: "user" | "assistant"; content: string }[];
  modelId?: string | null;
  engine?: string | null;
  /** `ask` (default) or `auto`; meaningless for the native engine, which asks nothing. */
  approvalPolicy?: "ask" | "auto" | null;
}

/**
 * Creates a run and dispatches it: validates the engine, resolves and pins the model, refuses a
 * second active run for the app, and records the pre-run checkpoint — all before answering, so a
 * 201 means the run exists and will end with exactly one terminal event.
 *
 * With Postgres the run is stored `queued` and its job added in the same transaction (a run exists
 * exactly when its job does); a worker claims it. With PGlite it executes here, so it is stored
 * already `running` and leased by this process, with `run.accepted` as its first event: a
 * separate update and insert would cost each run two more commits on its way to the model.
 */
export async function createRun(
  handle: DatabaseHandle,
  input: CreateRunInput,
): Promise<AgentRunRow> {
  const engine = input.engine ?? "native";
  const codingEngine = await preflightEngine(engine);
  await refreshProviderSettings({ db: handle.db });
  const model = await resolveModel(input.modelId ?? null);
  preflightEngineModel(codingEngine, describeModelEndpoint(model.id));
  const runId = randomUUID();
  const dispatcher = getRunDispatcher(handle);
  const here = dispatcher.inProcess;
  let run: AgentRunRow;
  try {
    run = await handle.db.transaction(async (transaction) => {
      const app = await getAppForUpdate(transaction, { id: input.appId });
      if (!app)
        throw new PatchworkError("NOT_FOUND", "App not found.", {
          details: { app_id: input.appId },
        });
      const active = await getActiveRunForApp(transaction, { appId: input.appId });
      if (active) throw activeRunError(active.id);
      const created = await insertRun(transaction, {
        id: runId,
        appId: input.appId,
        status: here ? "running" : "queued",
        startedAt: here ? new Date() : null,
        leaseOwner: here ? processLeaseOwner() : null,
        leaseExpiresAt: here ? new Date(Date.now() + leaseSeconds() * 1000) : null,
        input: input.input,
        messages: input.messages ?? null,
        requestedModelId: input.modelId ?? "auto",
        resolvedModelId: model.id,
        executionEngine: engine,
        approvalPolicy: input.approvalPolicy ?? "ask",
        baseRevisionId: app.draftRevisionId,
      });
      await insertCheckpoint(transaction, {
        appId: input.appId,
        revisionId: app.draftRevisionId!,
        kind: "pre_run",
        runId,
        label: "",
      });
      await insertRunEvent(transaction, {
        runId,
        seq: 1,
        type: "run.accepted",
        payload: {
          requested_model_id: created.requestedModelId,
          resolved_model_id: created.resolvedModelId,
          engine: created.executionEngine,
          base_revision_id: created.baseRevisionId,
        },
      });
      await dispatcher.enqueue(transaction, { runId });
      return created;
    });
  } catch (error) {
    // The partial unique index catches a race the row lock cannot (another process, same app).
    if (
      (error as { code?: string }).code === "23505" ||
      (error as { cause?: { code?: string } }).cause?.code === "23505"
    ) {
      throw activeRunError(null);
    }
    throw error;
  }
  dispatcher.committed(run);
  return run;
}

/**
 * Asks the run to stop. The executing process — this one or another, via the bus — aborts the
 * model call and ends the run with `run.cancelled`; nothing it changed is kept.
 */
export async function cancelRun(
  handle: DatabaseHandle,
  { appId, runId }: { appId: string; runId: string },
): Promise<AgentRunRow> {
  const run = await getAppRun(handle.db, { appId, id: runId });
  if (!run) throw new PatchworkError("NOT_FOUND", "Run not found.", { details: { run_id: runId } });
  if (run.status !== "queued" && run.status !== "running" && run.status !== "waiting") return run;
  await requestRunCancel(handle.db, { id: runId });
  const local = localExecutions().get(runId);
  if (local) {
    local.controller.abort(new RunCancelled());
    return run;
  }
  // Nobody executes a queued or waiting run: end it here, and take its job out of the queue. If a
  // worker claimed it meanwhile, the guard refuses and the cancel goes to that worker instead
  // (which also checks the request when it claims).
  const writer = await RunEventWriter.continuing(handle, run);
  const ended = await writer.finish(
    "run.cancelled",
    { message: "Stopped before finishing; no files were changed." },
    { status: "cancelled" },
    {
      guard: { notExecuting: true },
      inside: async (transaction) => {
        if (handle.kind === "postgres") await removeRunJob(transaction, { runId });
      },
    },
  );
  if (!ended) await (await getRunEventBus(handle)).publishCancel(runId);
  return run;
}

export async function getRun(
  handle: DatabaseHandle,
  { appId, runId }: { appId: string; runId: string },
): Promise<AgentRunRow> {
  const run = await getAppRun(handle.db, { appId, id: runId });
  if (!run) throw new PatchworkError("NOT_FOUND", "Run not found.", { details: { run_id: runId } });
  return run;
}

function activeRunError(activeRunId: string | null): PatchworkError {
  return new PatchworkError(
    "CODING_AGENT_RUN_ACTIVE",
    "This app already has a run in progress; wait for it or cancel it.",
    {
      details: activeRunId ? { active_run_id: activeRunId } : undefined,
    },
  );
}
