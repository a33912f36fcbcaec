import type { RunEvent, RunEventType } from "@/lib/agent/event-types";

/*
 * Event sequences as the server writes them (shapes from lib/agent/native-agent.ts and
 * run-executor.ts, text from the scripted model server's patch-retry scenario), for tests of
 * the reducer and the components that render it.
 */

export const recordedAppId = "6f1c2f8e-0d7a-4c55-9d1e-3a7e6b2c9f10";
export const recordedRunId = "0b8a1d3c-5e2f-4a6b-8c9d-1e2f3a4b5c6d";

function eventFactory(runId: string) {
  let seq = 0;
  return (type: RunEventType, payload: Record<string, unknown>): RunEvent => {
    seq += 1;
    return {
      seq,
      run_id: runId,
      app_id: recordedAppId,
      type,
      ts: new Date(Date.UTC(2026, 0, 5, 10, 0, 0, seq * 40)).toISOString(),
      payload,
    };
  };
}

/** A run whose first patch fails on stale context, then re-reads the lines and patches again. */
export function recordedPatchRetryRun(runId: string = recordedRunId): RunEvent[] {
  const event = eventFactory(runId);
  return [
    event("run.accepted", {
      requested_model_id: "compatible:patch-retry",
      resolved_model_id: "compatible:patch-retry",
      engine: "native",
      base_revision_id: "rev-base",
    }),
    event("reasoning.delta", { text: "The heading lives in src/App.tsx." }),
    event("assistant.delta", { text: "I'll change the heading " }),
    event("assistant.delta", { text: "right away." }),
    event("tool.started", { call_id: "call-1", tool: "apply_patch", title: "Edit src/App.tsx" }),
    event("tool.failed", {
      call_id: "call-1",
      tool: "apply_patch",
      title: "Edit src/App.tsx",
      code: "PATCH_CONTEXT_MISMATCH",
      message: "Hunk 1 of src/App.tsx does not match the file: the context lines differ.",
      diagnostics: [
        {
          path: "src/App.tsx",
          hunk_index: 0,
          code: "PATCH_CONTEXT_MISMATCH",
          message: "context does not match",
          expected_lines: ["        <h1>Welcome to the old app</h1>"],
          nearest_match: { line: 12 },
        },
      ],
      duration_ms: 4,
      patch_code: "PATCH_CONTEXT_MISMATCH",
      patch_failure_count: 1,
      recommended_refresh: ["src/App.tsx"],
    }),
    event("assistant.delta", { text: "That patch did not apply; " }),
    event("assistant.delta", { text: "let me re-read the lines around the heading." }),
    event("tool.started", {
      call_id: "call-2",
      tool: "read_file_range",
      title: "Read src/App.tsx (lines 7–17)",
    }),
    event("tool.completed", {
      call_id: "call-2",
      tool: "read_file_range",
      title: "Read src/App.tsx (lines 7–17)",
      summary: "lines 7–17 of 42",
      duration_ms: 2,
      path: "src/App.tsx",
      start_line: 7,
      end_line: 17,
      total_lines: 42,
    }),
    event("assistant.delta", { text: "Now I have the exact lines; patching again." }),
    event("tool.started", { call_id: "call-3", tool: "apply_patch", title: "Edit src/App.tsx" }),
    event("tool.completed", {
      call_id: "call-3",
      tool: "apply_patch",
      title: "Edit src/App.tsx",
      summary: "src/App.tsx +1 −1",
      duration_ms: 3,
      files: ["src/App.tsx"],
      additions: 1,
      deletions: 1,
      changes: [{ path: "src/App.tsx", status: "modified", additions: 1, deletions: 1 }],
    }),
    event("assistant.delta", {
      text: "I changed the heading in src/App.tsx to “Hello from Patchwork”.",
    }),
    event("revision.created", {
      revision_id: "rev-result",
      parent_revision_id: "rev-base",
      files_changed: [{ path: "src/App.tsx", status: "modified", additions: 1, deletions: 1 }],
      additions: 1,
      deletions: 1,
    }),
    event("checkpoint.created", {
      checkpoint_id: "checkpoint-post",
      revision_id: "rev-result",
      kind: "post_run",
      files_changed: [{ path: "src/App.tsx", status: "modified", additions: 1, deletions: 1 }],
      additions: 1,
      deletions: 1,
    }),
    event("usage", {
      input_tokens: 8_400,
      output_tokens: 295,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      total_cost_usd: null,
    }),
    event("run.completed", {
      result_revision_id: "rev-result",
      usage: {
        input_tokens: 8_400,
        output_tokens: 295,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        total_cost_usd: null,
      },
    }),
  ];
}

/** A run that validates a broken tool call, then is stopped while a read is in flight. */
export function recordedCancelledRun(runId: string = recordedRunId): RunEvent[] {
  const event = eventFactory(runId);
  return [
    event("run.accepted", {
      requested_model_id: "auto",
      resolved_model_id: "compatible:malformed-args",
      engine: "native",
      base_revision_id: "rev-base",
    }),
    event("assistant.delta", { text: "Let me read the app first." }),
    event("tool.started", { call_id: "call-1", tool: "read_file_range", title: "Read file range" }),
    event("tool.failed", {
      call_id: "call-1",
      tool: "read_file_range",
      code: "TOOL_INPUT_VALIDATION_FAILED",
      message: "Invalid tool arguments: path: path is required.",
      fields: [{ field: "path", message: "path is required" }],
      diagnostics: [],
      duration_ms: 0,
    }),
    event("tool.started", {
      call_id: "call-2",
      tool: "read_file_range",
      title: "Read src/App.tsx",
    }),
    event("run.cancelled", { message: "Stopped before finishing; no files were changed." }),
  ];
}
