import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { insertRun, listEventsAfter } from "@/db/queries/runs";
import type { RunEventRow } from "@/db/schema";
import { createApp } from "@/lib/workspace";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { testDatabases } from "@/test/support/databases";
import { getRunEventBatcher, RunEventBatcher } from "./run-event-batcher";

describe.each(testDatabases())("run event batcher on $name", (database) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function newRunId(): Promise<string> {
    const app = await createApp(handle.db, { name: "batcher", files: starterTemplateFiles });
    const run = await insertRun(handle.db, { appId: app.id, input: "test", status: "running" });
    return run.id;
  }

  const rows = (runId: string, seqs: number[]): RunEventRow[] =>
    seqs.map((seq) => ({
      runId,
      seq,
      type: "assistant.delta",
      payload: { text: `${runId.slice(0, 4)}-${seq}` },
      createdAt: new Date(),
    }));

  it("stores what several runs hand over on one turn, each run's rows in order", async () => {
    const batcher = getRunEventBatcher(handle);
    const runIds = await Promise.all([newRunId(), newRunId(), newRunId()]);
    await batcher.nextTurn();
    await Promise.all(runIds.map((runId) => batcher.insert(rows(runId, [1, 2, 3]))));
    for (const runId of runIds) {
      const stored = await listEventsAfter(handle.db, { runId, seq: 0 });
      expect(stored.map((event) => event.payload.text)).toEqual(
        [1, 2, 3].map((seq) => `${runId.slice(0, 4)}-${seq}`),
      );
    }
  });

  it("fails only the run whose rows cannot be stored, and stores the others of its statement", async () => {
    const batcher = getRunEventBatcher(handle);
    const [healthy, clashing] = await Promise.all([newRunId(), newRunId()]);
    // Seq 2 of `clashing` is taken already, as by a writer in another process.
    await batcher.insert(rows(clashing, [2]));
    await batcher.nextTurn();
    const outcomes = await Promise.allSettled([
      batcher.insert(rows(healthy, [1, 2])),
      batcher.insert(rows(clashing, [1, 2, 3])),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    expect(
      (await listEventsAfter(handle.db, { runId: healthy, seq: 0 })).map((event) => event.seq),
    ).toEqual([1, 2]);
    // Nothing of the failed batch is stored: the clashing run keeps only what it had.
    expect(
      (await listEventsAfter(handle.db, { runId: clashing, seq: 0 })).map((event) => event.seq),
    ).toEqual([2]);
  });

  it("while every urgent connection is busy, rows handed over on later turns wait and go as one statement", async () => {
    let statements = 0;
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    // The real database, with its urgent lane narrowed to one connection and the first statement
    // held back, as a slow round trip would hold it.
    const narrowed: DatabaseHandle = {
      ...handle,
      urgentConnections: 1,
      urgent: async (work) => {
        statements += 1;
        if (statements === 1) await firstHeld;
        return handle.urgent(work);
      },
    };
    const batcher = new RunEventBatcher(narrowed);
    const runIds = await Promise.all([newRunId(), newRunId(), newRunId(), newRunId()]);
    const first = batcher.insert(rows(runIds[0], [1]));
    const later: Promise<void>[] = [];
    for (const runId of runIds.slice(1)) {
      await batcher.nextTurn();
      later.push(batcher.insert(rows(runId, [1, 2])));
    }
    await batcher.nextTurn();
    expect(statements).toBe(1);
    releaseFirst();
    await Promise.all([first, ...later]);
    expect(statements).toBe(2);
    for (const runId of runIds.slice(1)) {
      const stored = await listEventsAfter(handle.db, { runId, seq: 0 });
      expect(stored.map((event) => event.seq)).toEqual([1, 2]);
    }
  });
});
