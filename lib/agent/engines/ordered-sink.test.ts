import { describe, expect, it } from "vitest";
import { recordingSink } from "./codex/recording-sink";
import type { EngineSink } from "./engine";
import { OrderedSink } from "./ordered-sink";

describe("OrderedSink", () => {
  it("keeps text behind a structured event that is still being stored", async () => {
    const recorded = recordingSink();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: EngineSink = {
      ...recorded.sink,
      emit: async (type, payload) => {
        await gate;
        await recorded.sink.emit(type, payload);
      },
    };
    const ordered = new OrderedSink(slow);
    ordered.text("text", "Before. ");
    const stored = ordered.emit("tool.started", { call_id: "c", tool: "edit", title: "Edit a" });
    ordered.text("text", "After.");
    expect(recorded.events.map((event) => event.type)).toEqual(["assistant.delta"]);
    release();
    await stored;
    await ordered.settled();
    expect(recorded.events.map((event) => [event.type, event.payload.text ?? null])).toEqual([
      ["assistant.delta", "Before. "],
      ["tool.started", null],
      ["assistant.delta", "After."],
    ]);
  });

  it("reports a failed store and goes on", async () => {
    const failures: unknown[] = [];
    const recorded = recordingSink();
    const failing: EngineSink = {
      ...recorded.sink,
      emit: async () => {
        throw new Error("disk full");
      },
    };
    const ordered = new OrderedSink(failing, (error) => failures.push(error));
    await expect(ordered.emit("notice", { kind: "info", message: "x" })).rejects.toThrow(
      "disk full",
    );
    ordered.text("text", "still here");
    await ordered.settled();
    expect(failures).toHaveLength(1);
    expect(recorded.events).toEqual([{ type: "assistant.delta", payload: { text: "still here" } }]);
  });
});
