import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import {
  type ModelServer,
  modelServerEnvironment,
  patchedHeading,
  startModelServer,
} from "@/test/model-server";
import {
  assistantText,
  cancelRun,
  createApp,
  eventsOfType,
  expectGaplessRun,
  getRun,
  readDraftFile,
  startRun,
} from "@/test/support/coding-agent-runs";
import { type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";
import { suiteDatabaseUrl } from "@/test/support/scratch-postgres";
import {
  collectRun,
  openSse,
  type RunEventData,
  runStreamUrl,
  type SseFrame,
} from "@/test/support/sse-client";

const databaseUrl = process.env.TEST_DATABASE_URL
  ? suiteDatabaseUrl(process.env.TEST_DATABASE_URL)
  : undefined;

/** LISTEN/NOTIFY only exists on Postgres; PGlite is one process per data dir by design. */
describe.skipIf(!databaseUrl)("two server processes on one Postgres database", () => {
  let modelServer: ModelServer;
  let serverA: PatchworkServer;
  let serverB: PatchworkServer;

  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0 });
    const env = {
      ...modelServerEnvironment(modelServer.url),
      DATABASE_URL: databaseUrl,
      PATCHWORK_RUN_LEASE_S: "5",
    };
    // A executes runs (its queue worker); B only serves, so every run here executes on A.
    [serverA, serverB] = await Promise.all([
      startPatchworkServer({ env }),
      startPatchworkServer({ env: { ...env, PATCHWORK_ROLE: "web" } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([serverA?.stop(), serverB?.stop()]);
    await modelServer?.close();
  });

  it("streams from B, live and in order, a run created on and executed by A", async () => {
    const app = await createApp(serverA, "Fan-out");
    const run = await startRun(serverA, app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    const [fromB, fromA] = await Promise.all([
      collectRun(serverB, app.id, run.id),
      collectRun(serverA, app.id, run.id),
    ]);
    expectGaplessRun(fromB.events, run);
    expect(fromB.events.at(-1)?.type).toBe("run.completed");
    expect(fromB.events).toEqual(fromA.events);
    expect(assistantText(fromB.events)).toContain("Chunk 60 of 60.");
    // Live, not replayed at the end: B saw the deltas arrive over the model's ~3 s, not in one burst.
    const deltaArrivals = fromB.frames
      .filter((frame) => frame.data.type === "assistant.delta")
      .map((frame) => frame.receivedAt);
    expect((deltaArrivals.at(-1) ?? 0) - (deltaArrivals[0] ?? 0)).toBeGreaterThan(2_000);
    expect(await readDraftFile(serverB, app.id, "src/App.tsx")).toContain(patchedHeading);
  });

  it("cancels through B a run executing on A", async () => {
    const app = await createApp(serverA, "Cancel across processes");
    const run = await startRun(serverA, app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    const connection = await openSse(runStreamUrl(serverB, app.id, run.id), {
      signal: AbortSignal.timeout(30_000),
    });
    const frames: SseFrame[] = [];
    let cancelledAt = 0;
    for await (const frame of connection.frames) {
      frames.push(frame);
      if (
        cancelledAt === 0 &&
        assistantText(frames.map((item) => item.data)).includes("Chunk 5 of 60.")
      ) {
        cancelledAt = performance.now();
        expect((await cancelRun(serverB, app.id, run.id)).status).toBe(202);
      }
    }
    const events: RunEventData[] = frames.map((frame) => frame.data);
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.cancelled");
    expect((frames.at(-1)?.receivedAt ?? 0) - cancelledAt).toBeLessThan(10_000);
    expect(assistantText(events)).not.toContain("Chunk 60 of 60.");
    expect(eventsOfType(events, "revision.created")).toEqual([]);
    expect(await getRun(serverA, app.id, run.id)).toMatchObject({
      status: "cancelled",
      result_revision_id: null,
    });
    expect(await readDraftFile(serverA, app.id, "src/App.tsx")).toBe(
      starterTemplateFiles["src/App.tsx"],
    );
  });

  it("lets B fail a run whose executing process A died, while B's stream follows it", async () => {
    const doomed = serverA;
    try {
      const app = await createApp(serverB, "Executor dies");
      const run = await startRun(serverB, app.id, {
        input: "Stream slowly",
        model_id: "compatible:slow-stream",
      });
      const connection = await openSse(runStreamUrl(serverB, app.id, run.id), {
        signal: AbortSignal.timeout(45_000),
      });
      const events: RunEventData[] = [];
      let killedAt = 0;
      for await (const frame of connection.frames) {
        events.push(frame.data);
        if (killedAt === 0 && frame.data.type === "assistant.delta") {
          killedAt = performance.now();
          await doomed.kill();
        }
      }
      // A's lease (5 s here) runs out unrenewed; B's sweeper, every third of a lease, ends the run.
      expect(performance.now() - killedAt).toBeLessThan(12_000);
      expectGaplessRun(events, run);
      expect(events.at(-1)).toMatchObject({
        type: "run.failed",
        payload: { code: "CODING_AGENT_RUN_INTERRUPTED" },
      });
      expect(await getRun(serverB, app.id, run.id)).toMatchObject({
        status: "failed",
        error_code: "CODING_AGENT_RUN_INTERRUPTED",
      });
      expect(await readDraftFile(serverB, app.id, "src/App.tsx")).toBe(
        starterTemplateFiles["src/App.tsx"],
      );
    } finally {
      await doomed.kill();
    }
  });
});
