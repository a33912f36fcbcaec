import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { type ModelServer, modelServerEnvironment, startModelServer } from "@/test/model-server";
import {
  assistantText,
  cancelRun,
  createApp,
  eventsOfType,
  expectGaplessRun,
  getRun,
  listRevisions,
  readDraftFile,
  runTargets,
  seededRandom,
  startRun,
} from "@/test/support/coding-agent-runs";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";
import { collectRun, openSse, type RunEventData, runStreamUrl } from "@/test/support/sse-client";

/** Fixed, so a failing disconnect schedule replays exactly; change it to explore other schedules. */
const scheduleSeed = 4_242;
const disconnectPoints = 100;

interface Segment {
  events: RunEventData[];
  /** Date.now() when this client dropped the connection (or the server ended it). */
  endedAt: number;
}

/**
 * Connects after `lastSeq` (no header on the very first connection) and drops the connection after
 * `frames` frames or `milliseconds` ms, whichever comes first; a timed drop may cut a frame in half.
 */
async function readSegment(
  server: { url: string },
  run: { id: string; app_id: string },
  lastSeq: number,
  limit: { frames: number; milliseconds?: number },
): Promise<Segment> {
  const connection = await openSse(runStreamUrl(server, run.app_id, run.id), {
    lastEventId: lastSeq === 0 ? undefined : lastSeq,
  });
  const timer =
    limit.milliseconds === undefined
      ? undefined
      : setTimeout(() => connection.close(), limit.milliseconds);
  const events: RunEventData[] = [];
  try {
    for await (const frame of connection.frames) {
      events.push(frame.data);
      if (events.length >= limit.frames) break;
    }
  } finally {
    clearTimeout(timer);
    connection.close();
  }
  return { events, endedAt: Date.now() };
}

describe.each(runTargets())("run streams on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;

  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0 });
    server = await startPatchworkServer({
      env: { ...modelServerEnvironment(modelServer.url), ...target.env },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  it("cancels mid-stream: the stream ends with run.cancelled and nothing is committed", async () => {
    const app = await createApp(server, "Cancel me");
    const run = await startRun(server, app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    const connection = await openSse(runStreamUrl(server, app.id, run.id), {
      signal: AbortSignal.timeout(30_000),
    });
    const events: RunEventData[] = [];
    let cancelledAt = 0;
    for await (const frame of connection.frames) {
      events.push(frame.data);
      // Text, not delta counts: the writer may coalesce deltas, the words stay the same.
      if (cancelledAt === 0 && assistantText(events).includes("Chunk 5 of 60.")) {
        cancelledAt = performance.now();
        const answer = await cancelRun(server, app.id, run.id);
        expect(answer.status).toBe(202);
        expect(answer.body).toMatchObject({ cancel_requested: true, run: { id: run.id } });
      }
    }
    const endedAt = performance.now();
    expectGaplessRun(events, run);
    expect(events.at(-1)).toMatchObject({
      type: "run.cancelled",
      payload: { message: expect.any(String) },
    });
    // Generous: CI machines are shared; a cancel that is ignored would take the full 3 s stream and more.
    expect(endedAt - cancelledAt).toBeLessThan(10_000);
    expect(assistantText(events)).toContain("Chunk 5 of 60.");
    expect(assistantText(events)).not.toContain("Chunk 60 of 60.");
    for (const type of [
      "tool.started",
      "revision.created",
      "checkpoint.created",
      "run.completed",
      "run.failed",
    ]) {
      expect(eventsOfType(events, type), type).toEqual([]);
    }

    expect(await getRun(server, app.id, run.id)).toMatchObject({
      status: "cancelled",
      result_revision_id: null,
      error_code: null,
    });
    const history = await listRevisions(server, app.id);
    expect(history.draft_revision_id).toBe(app.draft_revision_id);
    expect(history.revisions.map((revision) => revision.source)).toEqual(["template"]);
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toBe(
      starterTemplateFiles["src/App.tsx"],
    );
    const checkpoints = (await api(server, `/api/apps/${app.id}/coding-agent/checkpoints`)).body
      .checkpoints;
    expect(
      checkpoints
        .filter((checkpoint: { run_id: string }) => checkpoint.run_id === run.id)
        .map((checkpoint: { kind: string }) => checkpoint.kind),
    ).toEqual([]); // nothing changed, so the run leaves no checkpoint
    // The model was never asked for the step after the cut-off stream.
    expect(
      modelServer.requests
        .filter((request) => request.model === "slow-stream")
        .map((request) => request.stepIndex),
    ).toEqual([0]);

    // Cancelling a finished run is harmless and says nothing was requested.
    const again = await cancelRun(server, app.id, run.id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ cancel_requested: false, run: { status: "cancelled" } });
    // The stream of a finished run replays to the terminal event and ends.
    const replay = await collectRun(server, app.id, run.id, { timeoutMs: 10_000 });
    expect(replay.events).toEqual(events);
  });

  it(`reconnects with Last-Event-ID at ${disconnectPoints} random points (seed ${scheduleSeed}) without gaps or repeats`, async () => {
    const random = seededRandom(scheduleSeed);
    const integer = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
    let pointsUsed = 0;

    // A live run of ~3 s: drops at random moments, which can fall mid-frame or before any frame.
    const app = await createApp(server, "Reconnect live");
    const slowRun = await startRun(server, app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    const slowSegments: Segment[] = [];
    let lastSeq = 0;
    for (;;) {
      const segment = await readSegment(server, slowRun, lastSeq, {
        frames: integer(1, 6),
        milliseconds: integer(0, 150),
      });
      pointsUsed += 1;
      slowSegments.push(segment);
      lastSeq = segment.events.at(-1)?.seq ?? lastSeq;
      if (segment.events.some((event) => event.type === "run.completed")) break;
      expect(pointsUsed, "the slow run should end within 80 reconnects").toBeLessThan(80);
    }
    const slowUnion = slowSegments.flatMap((segment) => segment.events);
    expectGaplessRun(slowUnion, slowRun);
    const slowFinishedAt = Date.parse(slowUnion.at(-1)?.ts ?? "");
    const liveDrops = slowSegments.filter((segment) => segment.endedAt < slowFinishedAt).length;
    expect(liveDrops).toBeGreaterThanOrEqual(5);
    // Every frame equals its stored copy, byte for byte in JSON.
    expect(slowUnion).toEqual((await collectRun(server, app.id, slowRun.id)).events);

    // A fast run of ~2,000 events: the remaining drops by frame count, first live, then from storage.
    const fastApp = await createApp(server, "Reconnect fast");
    const fastRun = await startRun(server, fastApp.id, {
      input: "Stream fast",
      model_id: "compatible:long-stream",
    });
    const fastSegments: Segment[] = [];
    lastSeq = 0;
    while (pointsUsed < disconnectPoints) {
      const segment = await readSegment(server, fastRun, lastSeq, { frames: integer(1, 40) });
      pointsUsed += 1;
      fastSegments.push(segment);
      lastSeq = segment.events.at(-1)?.seq ?? lastSeq;
    }
    const rest = await collectRun(server, fastApp.id, fastRun.id, { lastEventId: lastSeq });
    expect(rest.endedByServer).toBe(true);
    const fastUnion = [...fastSegments.flatMap((segment) => segment.events), ...rest.events];
    expectGaplessRun(fastUnion, fastRun);
    expect(fastUnion.at(-1)?.type).toBe("run.completed");
    expect(assistantText(fastUnion)).toBe(
      Array.from({ length: 2_000 }, (_, index) => `t${index} `).join(""),
    );
    expect(fastUnion).toEqual((await collectRun(server, fastApp.id, fastRun.id)).events);
    expect(pointsUsed).toBe(disconnectPoints);

    // ?after= works like the header, and the header wins, as an EventSource reconnect sends both.
    const afterQuery = await collectRun(server, fastApp.id, fastRun.id, { after: 1_000 });
    expect(afterQuery.events).toEqual(fastUnion.slice(1_000));
    const both = await collectRun(server, fastApp.id, fastRun.id, {
      after: 10,
      lastEventId: 1_990,
    });
    expect(both.events).toEqual(fastUnion.slice(1_990));
    const atEnd = await collectRun(server, fastApp.id, fastRun.id, {
      lastEventId: fastUnion.length,
      timeoutMs: 10_000,
    });
    expect(atEnd).toMatchObject({ events: [], endedByServer: true });
  });
});
