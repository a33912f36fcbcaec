import { describe, expect, it } from "vitest";
import {
  followingEvent,
  recordedCancelledRun,
  recordedFailedRun,
  recordedPatchRetryRun,
  recordedRunId,
} from "./recorded-run-events";
import {
  createRunView,
  isRunFinished,
  reduceRunEvent,
  reduceRunEvents,
  type ToolCallItem,
} from "./run-event-reducer";

const initial = (runId: string = recordedRunId) => createRunView(runId);
const tools = (items: ReturnType<typeof initial>["items"]) =>
  items.filter((item): item is ToolCallItem => item.kind === "tool");

describe("reduceRunEvent", () => {
  it("holds a run paused at a rate limit until its resumed notice, and forgets it at the end", () => {
    const started = recordedPatchRetryRun().slice(0, 1);
    const resetAt = "2026-11-25T12:00:03.000Z";
    const limited = followingEvent(started, "notice", {
      kind: "rate_limited",
      message: "The model provider is rate limiting requests.",
      data: { reset_at: resetAt, wait_s: 3 },
    });
    const paused = reduceRunEvents(initial(), [...started, limited]);
    expect(paused.pausedUntil).toBe(resetAt);
    expect(isRunFinished(paused)).toBe(false);
    const resumed = followingEvent([limited], "notice", {
      kind: "resumed",
      message: "The rate limit has reset.",
      data: {},
    });
    expect(reduceRunEvent(paused, resumed).pausedUntil).toBeNull();
    const cancelled = followingEvent([limited], "run.cancelled", { message: "Stopped." });
    expect(reduceRunEvent(paused, cancelled)).toMatchObject({
      pausedUntil: null,
      phase: "cancelled",
    });
  });

  it("turns a recorded run into paragraphs and tool rows in the order they happened", () => {
    const view = reduceRunEvents(initial(), recordedPatchRetryRun());
    expect(
      view.items.map((item) =>
        item.kind === "text"
          ? `text: ${item.text}`
          : item.kind === "tool"
            ? `tool: ${item.title} (${item.status})`
            : item.kind === "notice"
              ? `notice: ${item.message}`
              : `approval: ${item.description}`,
      ),
    ).toEqual([
      "text: I'll change the heading right away.",
      "tool: Edit src/App.tsx (failed)",
      "text: That patch did not apply; let me re-read the lines around the heading.",
      "tool: Read src/App.tsx (lines 40–50) (completed)",
      "text: Now I have the exact lines; patching again.",
      "tool: Edit src/App.tsx (completed)",
      "text: I changed the heading in src/App.tsx from “Launch something people love” to “Hello from Patchwork”.",
    ]);
    expect(view.phase).toBe("completed");
    expect(view.lastSeq).toBe(recordedPatchRetryRun().length);
    expect(view.pending).toEqual([]);
  });

  it("keeps lifecycle events out of the timeline and in the run's summary", () => {
    const events = recordedPatchRetryRun();
    const view = reduceRunEvents(initial(), events);
    const lifecycle = [
      "run.accepted",
      "revision.created",
      "checkpoint.created",
      "usage",
      "run.completed",
    ];
    expect(events.some((event) => lifecycle.includes(event.type))).toBe(true);
    expect(view.items.every((item) => item.kind === "text" || item.kind === "tool")).toBe(true);
    expect(view.items).toHaveLength(7);
    expect(view.resolvedModelId).toBe("compatible:patch-retry");
    const created = events.find((event) => event.type === "revision.created")!;
    expect(view.revision).toEqual({
      revisionId: created.payload.revision_id,
      parentRevisionId: created.payload.parent_revision_id,
      files: [{ path: "src/App.tsx", status: "modified", additions: 1, deletions: 1 }],
      additions: 1,
      deletions: 1,
    });
    expect(view.usage?.input_tokens).toBe(7_400);
    expect(view.usage?.total_cost_usd).toBeNull();
  });

  it("records a failed patch with its one-line reason and the details behind it", () => {
    const [failed, , completed] = tools(reduceRunEvents(initial(), recordedPatchRetryRun()).items);
    expect(failed.status).toBe("failed");
    expect(failed.failure).toMatchObject({
      code: "PATCH_CONTEXT_NOT_FOUND",
      patchFailureCount: 1,
      recommendedRefresh: ["src/App.tsx"],
    });
    expect(failed.failure?.message).toMatch(/^Hunk 1 of src\/App\.tsx: the hunk's context/);
    expect(failed.diagnostics).toHaveLength(1);
    expect(failed.durationMs).toEqual(expect.any(Number));
    expect(completed).toMatchObject({
      status: "completed",
      additions: 1,
      deletions: 1,
      files: ["src/App.tsx"],
      failure: null,
    });
  });

  it("ignores duplicate seqs, as a reconnect's replay sends them", () => {
    const events = recordedPatchRetryRun();
    const once = reduceRunEvents(initial(), events);
    const replayed = reduceRunEvents(initial(), [
      ...events.slice(0, 8),
      ...events.slice(2),
      ...events,
    ]);
    expect(replayed).toEqual(once);
    expect(reduceRunEvent(once, events[3])).toBe(once);
  });

  it("holds events that arrive ahead of a gap until the gap fills", () => {
    const events = recordedPatchRetryRun();
    const shuffled = [events[0], events[3], events[2], events[4], events[1], ...events.slice(5)];
    const early = reduceRunEvents(initial(), [events[0], events[3], events[2]]);
    expect(early.lastSeq).toBe(1);
    expect(early.pending.map((event) => event.seq)).toEqual([3, 4]);
    expect(early.items).toEqual([]);
    expect(reduceRunEvents(initial(), shuffled)).toEqual(reduceRunEvents(initial(), events));
  });

  it("ignores the same early event twice and events of another run", () => {
    const events = recordedPatchRetryRun();
    const view = reduceRunEvents(initial(), [events[0], events[4], events[4]]);
    expect(view.pending).toHaveLength(1);
    const foreign = { ...events[1], run_id: "another-run" };
    expect(reduceRunEvent(view, foreign)).toBe(view);
  });

  it("keeps the fields a model got wrong, and reports a failed run with its code", () => {
    const events = recordedFailedRun();
    const view = reduceRunEvents(initial(events[0].run_id), events);
    expect(view.phase).toBe("failed");
    expect(view.failure).toEqual({
      code: "CODING_AGENT_MODEL_ERROR",
      message: "The model provider answered 400; the run stopped.",
    });
    const [unparsed, missing, read] = tools(view.items);
    expect(unparsed.failure?.fields).toEqual([
      { field: "(arguments)", message: "the arguments were not valid JSON" },
    ]);
    expect(missing.failure?.fields).toEqual([{ field: "path", message: "path is required" }]);
    expect(missing.title).toBe("Read file range");
    expect(read).toMatchObject({ status: "completed", title: "Read src/App.tsx" });
  });

  it("ends a stopped run as cancelled, with the streamed text kept", () => {
    const events = recordedCancelledRun();
    const view = reduceRunEvents(initial(events[0].run_id), events);
    expect(isRunFinished(view)).toBe(true);
    expect(view.phase).toBe("cancelled");
    expect(view.cancelMessage).toBe("Stopped before finishing; no files were changed.");
    expect(view.items).toHaveLength(1);
    expect(view.items[0]).toMatchObject({ kind: "text" });
    expect((view.items[0] as { text: string }).text).toMatch(
      /^Chunk 1 of 60\. .*Chunk 20 of 60\. $/,
    );
  });

  it("settles a tool still running when the run ends, and collects reasoning", () => {
    const events = recordedPatchRetryRun().slice(0, 3);
    const withReasoning = [
      ...events,
      followingEvent(events, "reasoning.delta", { text: "Re-read first." }),
    ];
    const stopped = [
      ...withReasoning,
      followingEvent(withReasoning, "run.cancelled", { message: "Stopped." }),
    ];
    const view = reduceRunEvents(initial(), stopped);
    expect(view.reasoning).toBe("Re-read first.");
    expect(tools(view.items)[0].status).toBe("interrupted");
  });

  it("is running from the first event and waiting before it", () => {
    expect(initial().phase).toBe("waiting");
    expect(reduceRunEvents(initial(), recordedPatchRetryRun().slice(0, 1)).phase).toBe("running");
  });

  it("places notices where they happened and keeps both revisions of a conflicted run", () => {
    const event = (seq: number, type: string, payload: Record<string, unknown>) => ({
      seq,
      run_id: recordedRunId,
      app_id: "app",
      type: type as "notice",
      ts: new Date(0).toISOString(),
      payload,
    });
    const revision = (id: string, parent: string) => ({
      revision_id: id,
      parent_revision_id: parent,
      files_changed: [{ path: "src/App.tsx", status: "modified", additions: 1, deletions: 1 }],
      additions: 1,
      deletions: 1,
    });
    const view = reduceRunEvents(initial(), [
      event(1, "run.accepted", {}),
      event(2, "assistant.delta", { text: "First." }),
      event(3, "notice", { kind: "loop_warning", message: "Same call three times." }),
      event(4, "assistant.delta", { text: "Then." }),
      event(5, "revision.created", revision("run-own", "base")),
      event(6, "revision.created", revision("draft", "saved")),
      event(7, "notice", {
        kind: "merge_conflict",
        message: "You changed src/App.tsx while the agent was editing it.",
        data: { files: ["src/App.tsx"], run_revision_id: "run-own", merged_files: [] },
      }),
      event(8, "run.completed", {}),
    ]);
    expect(
      view.items.map((item) => [item.kind, "noticeKind" in item ? item.noticeKind : ""]),
    ).toEqual([
      ["text", ""],
      ["notice", "loop_warning"],
      ["text", ""],
      ["notice", "merge_conflict"],
    ]);
    expect(view.items[3]).toMatchObject({
      conflict: { files: ["src/App.tsx"], runRevisionId: "run-own" },
    });
    expect(view.revision?.revisionId).toBe("draft");
    expect(view.revisions.map((item) => item.revisionId)).toEqual(["run-own", "draft"]);
  });

  it("shows an approval request as a pending card among the rows, then its decision", () => {
    const event = (seq: number, type: string, payload: Record<string, unknown>) => ({
      seq,
      run_id: recordedRunId,
      app_id: "app",
      type: type as "approval.requested",
      ts: new Date(0).toISOString(),
      payload,
    });
    const requested = reduceRunEvents(initial(), [
      event(1, "run.accepted", {}),
      event(2, "approval.requested", {
        approval_id: "a1",
        kind: "command",
        description: "Run npm test",
        context: { command: "npm test", cwd: "/work" },
      }),
    ]);
    expect(requested.items).toEqual([
      {
        kind: "approval",
        approvalId: "a1",
        approvalKind: "command",
        description: "Run npm test",
        diff: null,
        command: "npm test",
        cwd: "/work",
        decision: null,
        decidedBy: null,
      },
    ]);
    const resolved = reduceRunEvent(
      requested,
      event(3, "approval.resolved", {
        approval_id: "a1",
        decision: "decline",
        decided_by: "timeout",
      }),
    );
    expect(resolved.items[0]).toMatchObject({ decision: "decline", decidedBy: "timeout" });
  });
});

describe("payloads that break the event contract", () => {
  const event = (seq: number, type: string, payload: Record<string, unknown>) =>
    ({
      seq,
      run_id: "run-x",
      app_id: "app-x",
      type,
      ts: "2026-11-24T00:00:00.000Z",
      payload,
    }) as Parameters<typeof reduceRunEvent>[1];

  it("are skipped, not half-read, and the seq still advances", () => {
    const view = reduceRunEvents(createRunView("run-x"), [
      event(1, "tool.started", { tool: "apply_patch", title: "Edit" }),
      event(2, "tool.started", { call_id: "c1", tool: "apply_patch", title: "Edit a.ts" }),
      event(3, "tool.completed", {
        call_id: "c1",
        tool: "apply_patch",
        title: "Edit a.ts",
        summary: 7,
      }),
    ]);
    expect(view.lastSeq).toBe(3);
    expect(tools(view.items)).toEqual([
      expect.objectContaining({ callId: "c1", title: "Edit a.ts", status: "running" }),
    ]);
  });

  it("still end the run when the terminal event is malformed", () => {
    const view = reduceRunEvents(createRunView("run-x"), [
      event(1, "tool.started", { call_id: "c1", tool: "apply_patch", title: "Edit a.ts" }),
      event(2, "run.failed", { code: 42 }),
    ]);
    expect(view.phase).toBe("failed");
    expect(view.failure).toEqual({
      code: "CODING_AGENT_INTERNAL_ERROR",
      message: "The run failed.",
    });
    expect(tools(view.items)[0].status).toBe("interrupted");
  });
});
