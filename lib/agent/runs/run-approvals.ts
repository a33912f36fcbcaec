import "server-only";
import type { DatabaseHandle } from "@/db/client";
import {
  decideApprovalRequest,
  getRunApprovalRequest,
  insertApprovalRequest,
} from "@/db/queries/approvals";
import { getAppRun } from "@/db/queries/runs";
import type { AgentRunRow, ApprovalPolicy, ApprovalRequestRow } from "@/db/schema";
import type {
  ApprovalDecision,
  ApprovalKind,
  ApprovalRequestInput,
} from "@/lib/agent/engines/engine";
import type { RunEventBus } from "@/lib/agent/events/event-bus";
import type { RunEventWriter } from "@/lib/agent/events/run-event-writer";
import { PatchworkError } from "@/lib/errors";
import { workspacePathProblem } from "@/lib/workspace";

/** How often a waiting run re-reads its request, in case a cross-process wake-up was lost. */
const recheckIntervalMs = 2_000;

/**
 * Whether a policy lets a request through without asking: `auto` accepts file changes whose
 * every path stays inside the workspace, and still asks for commands and anything else.
 */
export function policyDecision(
  policy: ApprovalPolicy,
  kind: ApprovalKind,
  paths: readonly string[] | undefined,
): ApprovalDecision | null {
  if (policy !== "auto" || kind !== "file_change" || !paths || paths.length === 0) return null;
  return paths.every((path) => workspacePathProblem(path) === null) ? "accept" : null;
}

export interface RunApprovalsOptions {
  handle: DatabaseHandle;
  bus: RunEventBus;
  run: AgentRunRow;
  writer: RunEventWriter;
  signal: AbortSignal;
  timeoutMs: number;
  /** Paused while a person decides: waiting for them is not the engine going silent. */
  onWaitStart?: () => void;
  onWaitEnd?: () => void;
}

/**
 * The approval desk of one run: stores each request, shows it as `approval.requested`, waits for
 * the person's decision (from any process: a bus wake-up plus a periodic re-read), declines on
 * timeout or stop, and reports `approval.resolved`. "Accept for this session" lets later requests
 * of the same kind (and, for commands, the same command) through for the rest of the run.
 */
export function createRunApprovals(options: RunApprovalsOptions) {
  const acceptedForSession = new Set<string>();
  const sessionKey = (request: ApprovalRequestInput) =>
    request.kind === "command" ? `command:${request.context.command ?? ""}` : request.kind;

  return async function requestApproval(request: ApprovalRequestInput): Promise<ApprovalDecision> {
    const { handle, writer, run } = options;
    const byPolicy = policyDecision(run.approvalPolicy, request.kind, request.context.paths);
    if (byPolicy) return byPolicy;
    if (acceptedForSession.has(sessionKey(request))) return "accept";
    if (options.signal.aborted) return "decline";

    const row = await insertApprovalRequest(handle.db, {
      runId: run.id,
      kind: request.kind,
      description: request.description.slice(0, 500),
      context: { ...request.context },
    });
    await writer.emit("approval.requested", {
      approval_id: row.id,
      kind: row.kind,
      description: row.description,
      context: row.context,
    });
    options.onWaitStart?.();
    let decided: ApprovalRequestRow;
    try {
      decided = await waitForDecision(options, row.id);
    } finally {
      options.onWaitEnd?.();
    }
    const decision = decided.decision ?? "decline";
    await writer.emit("approval.resolved", {
      approval_id: decided.id,
      decision,
      decided_by: decided.decidedBy,
    });
    if (decision === "accept_for_session") acceptedForSession.add(sessionKey(request));
    return decision;
  };
}

async function waitForDecision(
  options: RunApprovalsOptions,
  approvalId: string,
): Promise<ApprovalRequestRow> {
  const { handle, bus, run, signal } = options;
  const read = async () =>
    (await getRunApprovalRequest(handle.db, { runId: run.id, id: approvalId }))!;
  let wake: () => void = () => undefined;
  const unsubscribe = bus.subscribeApprovalDecided(approvalId, () => wake());
  const onAbort = () => wake();
  signal.addEventListener("abort", onAbort, { once: true });
  const deadline = Date.now() + options.timeoutMs;
  try {
    for (;;) {
      const current = await read();
      if (current.decision) return current;
      const endedBy = signal.aborted ? "cancel" : Date.now() >= deadline ? "timeout" : null;
      if (endedBy) {
        const closed = await decideApprovalRequest(handle.db, {
          runId: run.id,
          id: approvalId,
          decision: "decline",
          decidedBy: endedBy,
        });
        // Someone decided in the same instant: theirs stands.
        return closed ?? (await read());
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(
          resolve,
          Math.max(0, Math.min(recheckIntervalMs, deadline - Date.now())),
        );
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * The person's answer to a pending request (`POST …/approvals/{id}`): decides it once and wakes
 * the run, wherever it executes. Unknown → NOT_FOUND; decided already → APPROVAL_ALREADY_DECIDED.
 */
export async function decideApproval(
  handle: DatabaseHandle,
  bus: RunEventBus,
  input: { appId: string; runId: string; approvalId: string; decision: ApprovalDecision },
): Promise<ApprovalRequestRow> {
  const run = await getAppRun(handle.db, { appId: input.appId, id: input.runId });
  if (!run) {
    throw new PatchworkError("NOT_FOUND", "Run not found.", { details: { run_id: input.runId } });
  }
  const existing = await getRunApprovalRequest(handle.db, {
    runId: input.runId,
    id: input.approvalId,
  });
  if (!existing) {
    throw new PatchworkError("NOT_FOUND", "This run has no approval request with that id.", {
      details: { approval_id: input.approvalId },
    });
  }
  const decided = await decideApprovalRequest(handle.db, {
    runId: input.runId,
    id: input.approvalId,
    decision: input.decision,
    decidedBy: "user",
  });
  if (!decided) {
    const current = await getRunApprovalRequest(handle.db, {
      runId: input.runId,
      id: input.approvalId,
    });
    throw new PatchworkError("APPROVAL_ALREADY_DECIDED", "This request was already answered.", {
      details: {
        approval_id: input.approvalId,
        decision: current?.decision ?? null,
        decided_by: current?.decidedBy ?? null,
      },
    });
  }
  await bus.publishApprovalDecided(decided.id);
  return decided;
}
