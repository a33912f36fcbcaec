import { parseRunEventPayload, type RunEventPayload } from "@/lib/agent/events/event-payloads";
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

/**
 * Something the run wants the person to know (a merge, a loop warning, a resumed session), shown
 * where it happened among the text and tool rows.
 */
export interface NoticeItem {
  kind: "notice";
  id: string;
  noticeKind: string;
  message: string;
  /** merge_conflict: the files both sides changed and the run's own revision. */
  conflict: { files: string[]; runRevisionId: string } | null;
}

/**
 * What the reply shows, in order: paragraphs of streamed text between tool calls, approvals and
 * notices.
 */
export type TimelineItem = TextItem | ToolCallItem | ApprovalItem | NoticeItem;

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
  /** The revision the draft moved to (the last one announced). */
  revision: RunRevision | null;
  /** Every revision the run made: two when a conflict landed the run's own beside the draft's. */
  revisions: RunRevision[];
  resolvedModelId: string | null;
  failure: { code: string; message: string } | null;
  cancelMessage: string | null;
  /** While the run is paused at a provider's rate limit: when it resumes (ISO). */
  pausedUntil: string | null;
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
    revisions: [],
    resolvedModelId: null,
    failure: null,
    cancelMessage: null,
    pausedUntil: null,
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
  // Each payload is read through its type's schema; one that does not match the contract is
  // skipped (or, for a terminal event, applied with plain defaults) rather than half-read.
  const raw = event.payload;
  switch (event.type) {
    case "run.accepted":
      return {
        ...view,
        phase: view.phase === "waiting" ? "running" : view.phase,
        resolvedModelId: parseRunEventPayload("run.accepted", raw)?.resolved_model_id ?? null,
      };
    case "assistant.delta":
      return appendText(
        running(view),
        event.seq,
        parseRunEventPayload("assistant.delta", raw)?.text ?? "",
      );
    case "reasoning.delta":
      return {
        ...running(view),
        reasoning: view.reasoning + (parseRunEventPayload("reasoning.delta", raw)?.text ?? ""),
      };
    case "tool.started": {
      const payload = parseRunEventPayload("tool.started", raw);
      return payload ? startTool(running(view), payload) : view;
    }
    case "tool.completed": {
      const payload = parseRunEventPayload("tool.completed", raw);
      return payload ? completeTool(running(view), payload) : view;
    }
    case "tool.failed": {
      const payload = parseRunEventPayload("tool.failed", raw);
      return payload ? failTool(running(view), payload) : view;
    }
    case "usage":
      return { ...view, usage: parseRunEventPayload("usage", raw) ?? view.usage };
    case "notice": {
      const payload = parseRunEventPayload("notice", raw);
      if (!payload?.message) return view;
      const notice: NoticeItem = {
        kind: "notice",
        id: `notice-${event.seq}`,
        noticeKind: payload.kind,
        message: payload.message,
        conflict: payload.kind === "merge_conflict" ? conflictOf(payload.data) : null,
      };
      return { ...view, items: [...view.items, notice], pausedUntil: pausedUntilOf(payload, view) };
    }
    case "revision.created": {
      const payload = parseRunEventPayload("revision.created", raw);
      if (!payload) return view;
      const revision: RunRevision = {
        revisionId: payload.revision_id,
        parentRevisionId: payload.parent_revision_id,
        files: payload.files_changed,
        additions: payload.additions,
        deletions: payload.deletions,
      };
      return { ...view, revision, revisions: [...view.revisions, revision] };
    }
    case "run.completed":
      return {
        ...interruptRunningTools(view),
        pausedUntil: null,
        phase: "completed",
        usage: parseRunEventPayload("run.completed", raw)?.usage ?? view.usage,
      };
    case "run.failed": {
      const payload = parseRunEventPayload("run.failed", raw);
      return {
        ...interruptRunningTools(view),
        pausedUntil: null,
        phase: "failed",
        failure: {
          code: payload?.code ?? "CODING_AGENT_INTERNAL_ERROR",
          message: payload?.message ?? "The run failed.",
        },
      };
    }
    case "run.cancelled":
      return {
        ...interruptRunningTools(view),
        pausedUntil: null,
        phase: "cancelled",
        cancelMessage: parseRunEventPayload("run.cancelled", raw)?.message ?? null,
      };
    case "approval.requested": {
      const payload = parseRunEventPayload("approval.requested", raw);
      return payload ? requestApproval(running(view), payload) : view;
    }
    case "approval.resolved": {
      const payload = parseRunEventPayload("approval.resolved", raw);
      return payload ? resolveApproval(view, payload) : view;
    }
    // Checkpoints never render on their own.
    case "checkpoint.created":
      return view;
    default:
      return view;
  }
}

function requestApproval(view: RunView, payload: RunEventPayload<"approval.requested">): RunView {
  const approvalId = payload.approval_id;
  if (view.items.some((item) => item.kind === "approval" && item.approvalId === approvalId))
    return view;
  const context = payload.context;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const item: ApprovalItem = {
    kind: "approval",
    approvalId,
    approvalKind: payload.kind,
    description: payload.description,
    diff: text(context.diff),
    command: text(context.command),
    cwd: text(context.cwd),
    decision: null,
    decidedBy: null,
  };
  return { ...view, items: [...view.items, item] };
}

function resolveApproval(view: RunView, payload: RunEventPayload<"approval.resolved">): RunView {
  return {
    ...view,
    items: view.items.map((item) =>
      item.kind === "approval" && item.approvalId === payload.approval_id
        ? { ...item, decision: payload.decision, decidedBy: payload.decided_by }
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

function startTool(
  view: RunView,
  payload: Pick<RunEventPayload<"tool.started">, "call_id" | "tool" | "title">,
): RunView {
  if (findTool(view, payload.call_id)) return view;
  const item: ToolCallItem = {
    kind: "tool",
    callId: payload.call_id,
    tool: payload.tool,
    title: payload.title || payload.tool,
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

type ToolEndPayload = RunEventPayload<"tool.completed"> | RunEventPayload<"tool.failed">;

/** Sets the row's end state; a completion without a start (never sent so, cheap to accept) gets a row. */
function endTool(
  view: RunView,
  payload: ToolEndPayload,
  end: Pick<ToolCallItem, "status" | "summary" | "failure">,
): RunView {
  const withRow = findTool(view, payload.call_id)
    ? view
    : startTool(view, { ...payload, title: payload.title ?? payload.tool });
  const details = Object.fromEntries(
    Object.entries(payload).filter(([key]) => !knownToolKeys.has(key)),
  );
  const items = withRow.items.map((item): TimelineItem => {
    if (item.kind !== "tool" || item.callId !== payload.call_id) return item;
    return {
      ...item,
      ...end,
      title: payload.title ?? item.title,
      durationMs: payload.duration_ms ?? null,
      files: payload.files ?? [],
      additions: payload.additions ?? null,
      deletions: payload.deletions ?? null,
      details,
      diagnostics: payload.diagnostics ?? [],
    };
  });
  return { ...withRow, items };
}

function completeTool(view: RunView, payload: RunEventPayload<"tool.completed">): RunView {
  return endTool(view, payload, { status: "completed", summary: payload.summary, failure: null });
}

function failTool(view: RunView, payload: RunEventPayload<"tool.failed">): RunView {
  return endTool(view, payload, {
    status: "failed",
    summary: null,
    failure: {
      code: payload.patch_code ?? payload.code,
      message: payload.message,
      fields: (payload.fields ?? []).map((field) => ({
        field: field.field ?? "(arguments)",
        message: field.message,
      })),
      patchFailureCount: payload.patch_failure_count ?? null,
      recommendedRefresh: payload.recommended_refresh ?? [],
    },
  });
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

/** A `rate_limited` notice pauses the run until its `reset_at`; the `resumed` one ends that. */
function pausedUntilOf(
  payload: { kind: string; data?: Record<string, unknown> },
  view: RunView,
): string | null {
  if (payload.kind === "resumed") return null;
  if (payload.kind !== "rate_limited") return view.pausedUntil;
  const resetAt = payload.data?.reset_at;
  return typeof resetAt === "string" && !Number.isNaN(Date.parse(resetAt)) ? resetAt : null;
}

function conflictOf(data: Record<string, unknown> | undefined): NoticeItem["conflict"] {
  const files = data?.files;
  const runRevisionId = data?.run_revision_id;
  if (!Array.isArray(files) || typeof runRevisionId !== "string") return null;
  return { files: files.filter((file) => typeof file === "string"), runRevisionId };
}
