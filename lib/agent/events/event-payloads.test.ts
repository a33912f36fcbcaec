import { describe, expect, it } from "vitest";
import recorded from "@/components/agent/recorded-run-events.json";
import { assertRunEventPayload, typedRunEventSchema } from "./event-payloads";
import { runEventTypes } from "./event-types";

describe("run event payload schemas", () => {
  it("cover every event type and accept every recorded event", () => {
    const events = Object.values(recorded)
      .filter((value) => Array.isArray(value))
      .flat() as {
      type: string;
      payload: unknown;
    }[];
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(() => assertRunEventPayload(event.type, event.payload), event.type).not.toThrow();
      expect(
        typedRunEventSchema.safeParse({ type: event.type, payload: event.payload }).success,
      ).toBe(true);
    }
    for (const type of runEventTypes) expect(() => assertRunEventPayload(type, {})).toThrow();
  });

  it("refuses a payload missing what the panel reads", () => {
    expect(() => assertRunEventPayload("tool.started", { call_id: "1", tool: "x" })).toThrow(
      /title/,
    );
    expect(() =>
      assertRunEventPayload("approval.resolved", {
        approval_id: "a",
        decision: "maybe",
        decided_by: null,
      }),
    ).toThrow(/decision/);
  });

  it("refuses a failure whose code is not in the one list of codes", () => {
    expect(() =>
      assertRunEventPayload("run.failed", { code: "SOMETHING_MADE_UP", message: "x" }),
    ).toThrow(/unknown code SOMETHING_MADE_UP/);
    expect(() =>
      assertRunEventPayload("tool.failed", {
        call_id: "c",
        tool: "apply_patch",
        code: "PATCH_CONTEXT_NOT_FOUND",
        message: "no",
        diagnostics: [],
      }),
    ).not.toThrow();
  });
});
