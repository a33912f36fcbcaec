import type { RunEvent } from "@/lib/agent/events/event-types";
import type { RunUsage } from "./agent-api-types";

/** Where a run is, as far as its events say; `waiting` until the first event arrives. */
export type RunPhase = "waiting" | "running" | "completed" | "failed" | "cancelled";

/** A tool call's row state; `interrupted` when the run ended while it was still running. */
export type ToolCallStatus = "running" | "completed" | "failed" | "interrupted";

export interface ToolInputProblem {
  field: string;
  message: string;
}

export interface ToolFailure {
  code: string;
  message: string;
  /** TOOL_INPUT_VALIDATION_FAILED: which argument was wrong and why. */
  fields: ToolInputProblem[];
  patchFailureCount: number | null;
  recommendedRefresh: string[];
}

export interface ToolCallItem {
  kind: "tool";
  callId: string;
  tool: string;
  /** The server's human title, e.g. "Edit src/App.tsx". */
  title: string;
  status: ToolCallStatus;
  summary: string | null;
  durationMs: number | null;
  /** Files an apply_patch (or write_file) changed. */
  files: string[];
  additions: number | null;
  deletions: number | null;
  failure: ToolFailure | null;
  /** Patch failures per hunk, build diagnostics…: rendered as readable lines. */
  diagnostics: Record<string, unknown>[];
  /** The rest of the completion payload (path, line range, counts…), for the expanded details. */
  details: Record<string, unknown>;
}

export interface TextItem {
  kind: "text";
  /** Stable across deltas: the seq of the delta that opened this paragraph. */
  id: string;
  text: string;
}

export type ApprovalChoice = "accept" | "accept_for_session" | "decline";

/** An engine's question to the person, shown among the tool rows until (and after) it is answered. */
export interface ApprovalItem {
  kind: "approval";
  approvalId: string;
  /** `file_change`, `command` or `permission`. */
  approvalKind: string;
  description: string;
  diff: string | null;
  command: string | null;
  cwd: string | null;
  /** Null while pending. */
  decision: ApprovalChoice | null;
  /** `user`, `policy`, `timeout` or `cancel`. */
  decidedBy: string | null;
}

/** What the reply shows, in order: paragraphs of streamed text between tool calls and approvals. */
export type TimelineItem = TextItem | ToolCallItem | ApprovalItem;

export interface ChangedFile {
  path: string;
  status: "added" | "modified" | "deleted";
  additions: number;
  deletions: number;
}

export interface RunRevision {
  revisionId: string;
  parentRevisionId: string | null;
  files: ChangedFile[];
  additions: number;
  deletions: number;
}

export interface RunNotice {
  seq: number;
  kind: string;
  message: string;
}

export interface RunView {
  runId: string;
  /** The highest seq applied with nothing missing before it: the resume point for Last-Event-ID. */
  lastSeq: number;
  /** Events that arrived ahead of a gap, applied once the gap fills. Sorted by seq. */
  pending: RunEvent[];
  phase: RunPhase;
  items: TimelineItem[];
  reasoning: string;
  usage: RunUsage | null;
  revision: RunRevision | null;
  resolvedModelId: string | null;
  failure: { code: string; message: string } | null;
  cancelMessage: string | null;
  notices: RunNotice[];
}

/** The view of a run before any of its events has arrived. */
export function createRunView(runId: string): RunView {
  return {
    runId,
    lastSeq: 0,
    pending: [],
    phase: "waiting",
    items: [],
    reasoning: "",
    usage: null,
    revision: null,
    resolvedModelId: null,
    failure: null,
    cancelMessage: null,
    notices: [],
  };
}

/** True once one of run.completed / run.failed / run.cancelled has been applied. */
export function isRunFinished(view: RunView): boolean {
  return view.phase === "completed" || view.phase === "failed" || view.phase === "cancelled";
}

/**
 * Applies one event to a run's view. Events are applied strictly in seq order: a seq already
 * applied (a replay after reconnecting) is ignored, and one that arrives ahead of a gap waits in
 * `pending` until the missing ones come. The single source of truth for rendering a run.
 */
export function reduceRunEvent(view: RunView, event: RunEvent): RunView {
  if (event.run_id !== view.runId || event.seq <= view.lastSeq) return view;
  if (event.seq > view.lastSeq + 1) {
    if (view.pending.some((waiting) => waiting.seq === event.seq)) return view;
    const pending = [...view.pending, event].sort((left, right) => left.seq - right.seq);
    return { ...view, pending };
  }
  let next = applyEvent({ ...view, lastSeq: event.seq }, event);
  while (next.pending.length > 0 && next.pending[0].seq <= next.lastSeq + 1) {
    const [head, ...rest] = next.pending;
    next =
      head.seq === next.lastSeq + 1
        ? applyEvent({ ...next, pending: rest, lastSeq: head.seq }, head)
        : { ...next, pending: rest };
  }
  return next;
}

/** Applies events in the order given (each through `reduceRunEvent`). */
export function reduceRunEvents(view: RunView, events: readonly RunEvent[]): RunView {
  return events.reduce(reduceRunEvent, view);
}

function applyEvent(view: RunView, event: RunEvent): RunView {
  const payload = event.payload;
  switch (event.type) {
    case "run.accepted":
      return {
        ...view,
        phase: view.phase === "waiting" ? "running" : view.phase,
        resolvedModelId: readString(payload.resolved_model_id),
      };
    case "assistant.delta":
      return appendText(running(view), event.seq, readString(payload.text) ?? "");
    case "reasoning.delta":
      return { ...running(view), reasoning: view.reasoning + (readString(payload.text) ?? "") };
    case "tool.started":
      return startTool(running(view), payload);
    case "tool.completed":
      return finishTool(running(view), payload, "completed");
    case "tool.failed":
      return finishTool(running(view), payload, "failed");
    case "usage":
      return { ...view, usage: readUsage(payload) ?? view.usage };
    case "notice": {
      const message = readString(payload.message);
      if (!message) return view;
      const notice = { seq: event.seq, kind: readString(payload.kind) ?? "info", message };
      return { ...view, notices: [...view.notices, notice] };
    }
    case "revision.created": {
      const revisionId = readString(payload.revision_id);
      if (!revisionId) return view;
      const files = readChangedFiles(payload.files_changed);
      return {
        ...view,
        revision: {
          revisionId,
          parentRevisionId: readString(payload.parent_revision_id),
          files,
          additions: readNumber(payload.additions) ?? sum(files, "additions"),
          deletions: readNumber(payload.deletions) ?? sum(files, "deletions"),
        },
      };
    }
    case "run.completed":
      return {
        ...interruptRunningTools(view),
        phase: "completed",
        usage: readUsage(payload.usage) ?? view.usage,
      };
    case "run.failed":
      return {
        ...interruptRunningTools(view),
        phase: "failed",
        failure: {
          code: readString(payload.code) ?? "CODING_AGENT_INTERNAL_ERROR",
          message: readString(payload.message) ?? "The run failed.",
        },
      };
    case "run.cancelled":
      return {
        ...interruptRunningTools(view),
        phase: "cancelled",
        cancelMessage: readString(payload.message),
      };
    // Lifecycle and engine events that never render on their own.
    case "approval.requested":
      return requestApproval(running(view), payload);
    case "approval.resolved":
      return resolveApproval(view, payload);
    case "checkpoint.created":
      return view;
    default:
      return view;
  }
}

function requestApproval(view: RunView, payload: Record<string, unknown>): RunView {
  const approvalId = readString(payload.approval_id);
  if (
    !approvalId ||
    view.items.some((item) => item.kind === "approval" && item.approvalId === approvalId)
  )
    return view;
  const context = (payload.context ?? {}) as Record<string, unknown>;
  const item: ApprovalItem = {
    kind: "approval",
    approvalId,
    approvalKind: readString(payload.kind) ?? "permission",
    description: readString(payload.description) ?? "",
    diff: readString(context.diff),
    command: readString(context.command),
    cwd: readString(context.cwd),
    decision: null,
    decidedBy: null,
  };
  return { ...view, items: [...view.items, item] };
}

function resolveApproval(view: RunView, payload: Record<string, unknown>): RunView {
  const approvalId = readString(payload.approval_id);
  const decision = readString(payload.decision) as ApprovalChoice | null;
  return {
    ...view,
    items: view.items.map((item) =>
      item.kind === "approval" && item.approvalId === approvalId
        ? { ...item, decision: decision ?? "decline", decidedBy: readString(payload.decided_by) }
        : item,
    ),
  };
}

function running(view: RunView): RunView {
  return view.phase === "waiting" ? { ...view, phase: "running" } : view;
}

function appendText(view: RunView, seq: number, text: string): RunView {
  if (!text) return view;
  const last = view.items.at(-1);
  if (last?.kind === "text") {
    return { ...view, items: [...view.items.slice(0, -1), { ...last, text: last.text + text }] };
  }
  return { ...view, items: [...view.items, { kind: "text", id: `text-${seq}`, text }] };
}

function startTool(view: RunView, payload: Record<string, unknown>): RunView {
  const callId = readString(payload.call_id);
  if (!callId || findTool(view, callId)) return view;
  const tool = readString(payload.tool) ?? "tool";
  const item: ToolCallItem = {
    kind: "tool",
    callId,
    tool,
    title: readString(payload.title) ?? tool,
    status: "running",
    summary: null,
    durationMs: null,
    files: [],
    additions: null,
    deletions: null,
    failure: null,
    diagnostics: [],
    details: {},
  };
  return { ...view, items: [...view.items, item] };
}

const knownToolKeys = new Set([
  "call_id",
  "tool",
  "title",
  "summary",
  "duration_ms",
  "files",
  "additions",
  "deletions",
  "code",
  "message",
  "diagnostics",
  "fields",
  "patch_code",
  "patch_failure_count",
  "recommended_refresh",
]);

function finishTool(
  view: RunView,
  payload: Record<string, unknown>,
  status: "completed" | "failed",
): RunView {
  const callId = readString(payload.call_id);
  if (!callId) return view;
  // A completion without a start (never sent that way, but cheap to accept) still gets a row.
  const withRow = findTool(view, callId) ? view : startTool(view, payload);
  const details = Object.fromEntries(
    Object.entries(payload).filter(([key]) => !knownToolKeys.has(key)),
  );
  const items = withRow.items.map((item): TimelineItem => {
    if (item.kind !== "tool" || item.callId !== callId) return item;
    return {
      ...item,
      status,
      title: readString(payload.title) ?? item.title,
      summary: readString(payload.summary),
      durationMs: readNumber(payload.duration_ms),
      files: readStrings(payload.files),
      additions: readNumber(payload.additions),
      deletions: readNumber(payload.deletions),
      details,
      diagnostics: readRecords(payload.diagnostics),
      failure:
        status === "failed"
          ? {
              code: readString(payload.patch_code) ?? readString(payload.code) ?? "TOOL_FAILED",
              message: readString(payload.message) ?? "The tool failed.",
              fields: readRecords(payload.fields).flatMap((field) => {
                const message = readString(field.message);
                return message
                  ? [{ field: readString(field.field) ?? "(arguments)", message }]
                  : [];
              }),
              patchFailureCount: readNumber(payload.patch_failure_count),
              recommendedRefresh: readStrings(payload.recommended_refresh),
            }
          : null,
    };
  });
  return { ...withRow, items };
}

function interruptRunningTools(view: RunView): RunView {
  if (!view.items.some((item) => item.kind === "tool" && item.status === "running")) return view;
  return {
    ...view,
    items: view.items.map((item) =>
      item.kind === "tool" && item.status === "running"
        ? { ...item, status: "interrupted" as const }
        : item,
    ),
  };
}

function findTool(view: RunView, callId: string): ToolCallItem | undefined {
  return view.items.find(
    (item): item is ToolCallItem => item.kind === "tool" && item.callId === callId,
  );
}

function readString(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function readNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function readStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry) => typeof entry === "string") : [];
}

function readRecords(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is Record<string, unknown> =>
      typeof entry === "object" && entry !== null && !Array.isArray(entry),
  );
}

function readChangedFiles(value: unknown): ChangedFile[] {
  return readRecords(value).flatMap((entry) => {
    const path = readString(entry.path);
    if (!path) return [];
    const status =
      entry.status === "added" || entry.status === "deleted" ? entry.status : "modified";
    return [
      {
        path,
        status,
        additions: readNumber(entry.additions) ?? 0,
        deletions: readNumber(entry.deletions) ?? 0,
      },
    ];
  });
}

function readUsage(value: unknown): RunUsage | null {
  if (typeof value !== "object" || value === null) return null;
  const usage = value as Record<string, unknown>;
  const input = readNumber(usage.input_tokens);
  const output = readNumber(usage.output_tokens);
  if (input === null && output === null) return null;
  return {
    input_tokens: input ?? 0,
    output_tokens: output ?? 0,
    cache_read_input_tokens: readNumber(usage.cache_read_input_tokens) ?? 0,
    cache_creation_input_tokens: readNumber(usage.cache_creation_input_tokens) ?? 0,
    total_cost_usd: readNumber(usage.total_cost_usd),
  };
}

function sum(files: ChangedFile[], key: "additions" | "deletions"): number {
  return files.reduce((total, file) => total + file[key], 0);
}
