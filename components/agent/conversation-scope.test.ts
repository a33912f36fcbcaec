import { describe, expect, it } from "vitest";
import type { AgentRun } from "./agent-api-types";
import { messagesForNextRun, splitConversation } from "./conversation-scope";

function run(id: string, overrides: Partial<AgentRun> = {}): AgentRun {
  return {
    id,
    app_id: "app",
    status: "completed",
    input: `input ${id}`,
    requested_model_id: "auto",
    resolved_model_id: "compatible:happy-path",
    execution_engine: "native",
    approval_policy: "ask",
    engine_run_ref: null,
    base_revision_id: null,
    result_revision_id: null,
    output_text: `reply ${id}`,
    usage: null,
    error_code: null,
    error_message: null,
    created_at: "2026-01-05T10:00:00.000Z",
    started_at: null,
    finished_at: null,
    resume_at: null,
    ...overrides,
  };
}

describe("conversation scope", () => {
  const runs = [run("a"), run("b"), run("c", { status: "cancelled", output_text: "" })];

  it("keeps the whole conversation until it is cleared", () => {
    expect(splitConversation(runs, null)).toEqual({ earlier: [], current: runs });
    expect(splitConversation(runs, "missing")).toEqual({ earlier: [], current: runs });
    expect(messagesForNextRun(runs, false)).toBeUndefined();
  });

  it("after a clear, shows and sends only the turns since", () => {
    const split = splitConversation(runs, "a");
    expect(split.earlier.map((entry) => entry.id)).toEqual(["a"]);
    expect(split.current.map((entry) => entry.id)).toEqual(["b", "c"]);
    expect(messagesForNextRun(split.current, true)).toEqual([
      { role: "user", content: "input b" },
      { role: "assistant", content: "reply b" },
      { role: "user", content: "input c" },
      { role: "assistant", content: "(the run cancelled)" },
    ]);
    expect(messagesForNextRun(splitConversation(runs, "c").current, true)).toEqual([]);
  });

  it("leaves a run still in progress out of the earlier turns", () => {
    expect(messagesForNextRun([run("d", { status: "running" })], true)).toEqual([]);
  });
});
