import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { getRunById, insertRun, listEventsAfter } from "@/db/queries/runs";
import { createApp } from "@/lib/workspace";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { testDatabases } from "@/test/support/databases";
import { getRunEventBus, type RunEventSignal } from "./event-bus";
import { RunEventWriter } from "./run-event-writer";

const secret = "sk-writer-test-0123456789";

describe.each(testDatabases())("run event writer on $name", (database) => {
  let handle: DatabaseHandle;
  const savedKey = process.env.OPENAI_COMPATIBLE_API_KEY;

  beforeAll(async () => {
    handle = await database.open();
    process.env.OPENAI_COMPATIBLE_API_KEY = secret;
  });
  afterAll(async () => {
    if (savedKey === undefined) delete process.env.OPENAI_COMPATIBLE_API_KEY;
    else process.env.OPENAI_COMPATIBLE_API_KEY = savedKey;
    await handle?.close();
  });

  async function newRun() {
    const app = await createApp(handle.db, { name: "writer", files: starterTemplateFiles });
    const run = await insertRun(handle.db, { appId: app.id, input: "test", status: "running" });
    const bus = await getRunEventBus(handle);
    const writer = new RunEventWriter(handle, bus, { id: run.id, appId: app.id }, 0);
    return { run, bus, writer };
  }

  it("stores a burst of deltas as a few events with gapless seqs, text intact and in order", async () => {
    const { run, bus, writer } = await newRun();
    const published: RunEventSignal[] = [];
    // Signals that carry the event come from this process; Postgres also echoes seq-only ones.
    const unsubscribe = bus.subscribe(run.id, (signal) => {
      if (signal.event) published.push(signal);
    });
    const tokens = Array.from({ length: 3_000 }, (_, index) => `t${index} `);
    await writer.emit("run.accepted", {
      engine: "native",
      requested_model_id: null,
      resolved_model_id: null,
      base_revision_id: null,
    });
    for (const token of tokens) writer.emitInBackground("assistant.delta", { text: token });
    writer.emitInBackground("reasoning.delta", { text: "thinking" });
    writer.emitInBackground("assistant.delta", { text: "after" });
    await writer.emit("tool.started", { call_id: "c1", tool: "read_file_range", title: "Read" });
    await writer.flush();
    unsubscribe();

    const events = await listEventsAfter(handle.db, { runId: run.id, seq: 0, limit: 10_000 });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    // 3,000 deltas emitted in one turn of the event loop are one write: 16 KiB rows at most.
    const textEvents = events.filter((event) => event.type === "assistant.delta");
    expect(textEvents.length).toBeLessThan(10);
    expect(textEvents.every((event) => String(event.payload.text).length <= 16_384)).toBe(true);
    expect(events.map((event) => event.type)).toEqual([
      "run.accepted",
      ...textEvents.slice(0, -1).map(() => "assistant.delta"),
      "reasoning.delta",
      "assistant.delta",
      "tool.started",
    ]);
    const storedText = textEvents.map((event) => event.payload.text).join("");
    expect(storedText).toBe(`${tokens.join("")}after`);
    // Followers here were handed every stored event, in seq order, each once.
    expect(published.map((signal) => signal.seq)).toEqual(events.map((event) => event.seq));
    expect(published.map((signal) => signal.event?.payload)).toEqual(
      events.map((event) => event.payload),
    );
  });

  it("redacts a secret the model splits across deltas, in events and the terminal payload", async () => {
    const { run, writer } = await newRun();
    const pieces = ["Your key is sk-wri", "ter-test-01", "23456789 and more text"];
    for (const piece of pieces) {
      writer.emitInBackground("assistant.delta", { text: piece });
      // Separate writes, so no single stored row would hold the whole secret by luck.
      await writer.flush();
    }
    writer.emitInBackground("assistant.delta", { text: "ends with sk-w" });
    await writer.finish(
      "run.failed",
      { code: "CODING_AGENT_MODEL_ERROR", message: `finished ${secret}` },
      { status: "failed", outputText: pieces.join("") },
    );
    const events = await listEventsAfter(handle.db, { runId: run.id, seq: 0, limit: 100 });
    expect(JSON.stringify(events)).not.toContain("sk-writer-test");
    const text = events
      .filter((event) => event.type === "assistant.delta")
      .map((event) => event.payload.text)
      .join("");
    // The held-back "sk-w" was no secret after all: released before the terminal event.
    expect(text).toBe("Your key is [redacted] and more textends with sk-w");
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      payload: { message: "finished [redacted]" },
    });
    expect((await getRunById(handle.db, { id: run.id }))?.outputText).toBe(
      "Your key is [redacted] and more text",
    );
  });

  it("stores nothing and reports the failure when a write is refused", async () => {
    const bus = await getRunEventBus(handle);
    // No such run: the foreign key refuses every row of the batch.
    const writer = new RunEventWriter(handle, bus, { id: randomUUID(), appId: randomUUID() }, 0);
    writer.emitInBackground("assistant.delta", { text: "lost" });
    const awaited = writer.emit("tool.started", { call_id: "c", tool: "x", title: "x" });
    await expect(awaited).rejects.toThrow();
    await expect(writer.flush()).rejects.toThrow();
    const usage = {
      input_tokens: 1,
      output_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      total_cost_usd: null,
    };
    await expect(writer.emit("usage", usage)).rejects.toThrow(/run_event|foreign|violates/);
  });
});
