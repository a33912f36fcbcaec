import postgres from "postgres";
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
  type RunJson,
  readDraftFile,
  startRun,
} from "@/test/support/coding-agent-runs";
import {
  type PatchworkServer,
  type PatchworkWorker,
  startPatchworkServer,
  startPatchworkWorker,
} from "@/test/support/patchwork-server";
import { suiteDatabaseUrl } from "@/test/support/scratch-postgres";
import { collectRun, openSse, type RunEventData, runStreamUrl } from "@/test/support/sse-client";

const databaseUrl = process.env.TEST_DATABASE_URL
  ? suiteDatabaseUrl(process.env.TEST_DATABASE_URL)
  : undefined;

/**
 * Short, so a dead worker's runs are reclaimed quickly here (the default is 30 s), yet long
 * enough that a heartbeat delayed by a busy machine does not lose a live run its lease.
 */
const leaseSeconds = 6;

/**
 * PRODUCT §10: two web processes that only serve and two workers that only execute, on one
 * Postgres database, working as one Patchwork — and what happens when one of them dies.
 */
describe.skipIf(!databaseUrl)("two web processes and two workers on one Postgres database", () => {
  let modelServer: ModelServer;
  let sql: postgres.Sql;
  let environment: Record<string, string>;
  const webs: PatchworkServer[] = [];
  const workers: PatchworkWorker[] = [];

  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0 });
    environment = {
      ...modelServerEnvironment(modelServer.url),
      DATABASE_URL: databaseUrl!,
      PATCHWORK_RUN_LEASE_S: String(leaseSeconds),
    };
    webs.push(
      ...(await Promise.all([
        startPatchworkServer({ env: { ...environment, PATCHWORK_ROLE: "web" } }),
        startPatchworkServer({ env: { ...environment, PATCHWORK_ROLE: "web" } }),
      ])),
    );
    workers.push(
      ...(await Promise.all([
        startPatchworkWorker({ env: environment }),
        startPatchworkWorker({ env: environment }),
      ])),
    );
    sql = postgres(databaseUrl!, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await Promise.all([...webs, ...workers].map((process) => process.stop()));
    await sql?.end();
    await modelServer?.close();
  });

  /** The worker holding the run's lease (its pid is in the lease owner's name). */
  async function executingWorker(runId: string): Promise<PatchworkWorker> {
    for (let waited = 0; waited < 15_000; waited += 50) {
      const [row] = await sql<{ lease_owner: string | null }[]>`
        select lease_owner from agent_run where id = ${runId}`;
      const pid = Number(row?.lease_owner?.split("/")[1]);
      const worker = workers.find((candidate) => candidate.process.pid === pid);
      if (worker) return worker;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no worker claimed run ${runId}`);
  }

  /** Reads the stream, reconnecting with Last-Event-ID when the connection breaks. */
  async function followToEnd(
    server: PatchworkServer,
    run: RunJson,
    events: RunEventData[] = [],
  ): Promise<RunEventData[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const part = await collectRun(server, run.app_id, run.id, {
          lastEventId: events.at(-1)?.seq,
          timeoutMs: 60_000,
        });
        events.push(...part.events);
        if (part.endedByServer) return events;
      } catch (error) {
        if (attempt >= 5) throw error;
      }
    }
  }

  it("executes runs created on either web process on the workers, streamed from either", async () => {
    const app = await createApp(webs[0], "Split roles");
    const run = await startRun(webs[1], app.id, {
      input: "Make the heading say Hello",
      model_id: "compatible:happy-path",
    });
    expect(run.status).toBe("queued");
    const [fromFirst, fromSecond] = await Promise.all([
      collectRun(webs[0], app.id, run.id),
      collectRun(webs[1], app.id, run.id),
    ]);
    expectGaplessRun(fromFirst.events, run);
    expect(fromFirst.events.at(-1)?.type).toBe("run.completed");
    expect(fromSecond.events).toEqual(fromFirst.events);
    expect(await readDraftFile(webs[0], app.id, "src/App.tsx")).toContain(patchedHeading);
  });

  it("ends a run whose worker is killed with -9 as interrupted within the lease, keeping the pre-run draft", async () => {
    const app = await createApp(webs[0], "Worker dies");
    const run = await startRun(webs[0], app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    const connection = await openSse(runStreamUrl(webs[1], app.id, run.id), {
      signal: AbortSignal.timeout(45_000),
    });
    const events: RunEventData[] = [];
    let killedAt = 0;
    let victim: PatchworkWorker | null = null;
    for await (const frame of connection.frames) {
      events.push(frame.data);
      if (!victim && frame.data.type === "assistant.delta") {
        victim = await executingWorker(run.id);
        killedAt = performance.now();
        await victim.kill();
      }
    }
    const interruptedAfterMs = performance.now() - killedAt;
    console.log(
      `[measure] kill -9 of a worker → run.failed on the stream: ${Math.round(interruptedAfterMs)} ms (lease ${leaseSeconds} s)`,
    );
    // The lease runs out unrenewed, then a sweeper (every third of a lease) ends the run.
    expect(interruptedAfterMs).toBeLessThan(leaseSeconds * 1000 + 6_000);
    expectGaplessRun(events, run);
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      payload: { code: "CODING_AGENT_RUN_INTERRUPTED" },
    });
    expect(eventsOfType(events, "revision.created")).toEqual([]);
    expect(await readDraftFile(webs[0], app.id, "src/App.tsx")).toBe(
      starterTemplateFiles["src/App.tsx"],
    );
    // Two workers again for the tests below.
    workers.splice(workers.indexOf(victim!), 1, await startPatchworkWorker({ env: environment }));
  });

  it("continues a stream on the other web process after one is killed with -9, nothing lost or repeated", async () => {
    const app = await createApp(webs[0], "Web dies");
    const run = await startRun(webs[0], app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    const connection = await openSse(runStreamUrl(webs[0], app.id, run.id), {
      signal: AbortSignal.timeout(45_000),
    });
    const beforeKill: RunEventData[] = [];
    const readUntilTheServerDies = async () => {
      for await (const frame of connection.frames) {
        beforeKill.push(frame.data);
        if (beforeKill.length === 5) await webs[0].kill();
      }
    };
    await expect(readUntilTheServerDies()).rejects.toThrow();
    expect(beforeKill.length).toBeGreaterThanOrEqual(5);
    const rest = await collectRun(webs[1], app.id, run.id, {
      lastEventId: beforeKill.at(-1)!.seq,
    });
    const events = [...beforeKill, ...rest.events];
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(assistantText(events)).toContain("Chunk 60 of 60.");
    webs[0] = await startPatchworkServer({ env: { ...environment, PATCHWORK_ROLE: "web" } });
  });

  it("pauses at a 429 whose reset is 3 s ahead (waiting), then completes on a worker", async () => {
    const app = await createApp(webs[0], "Rate limited");
    const run = await startRun(webs[0], app.id, {
      input: "Make the heading say Hello",
      model_id: "compatible:rate-limited-resume",
    });
    let waiting: RunJson | null = null;
    for (let waited = 0; waited < 3_000 && !waiting; waited += 50) {
      const current = await getRun(webs[1], app.id, run.id);
      if (current.status === "waiting") waiting = current;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(waiting?.status).toBe("waiting");
    const resumeAt = Date.parse(String((waiting as { resume_at?: string } | null)?.resume_at));
    expect(resumeAt - Date.now()).toBeGreaterThan(0);
    expect(resumeAt - Date.now()).toBeLessThanOrEqual(3_000);
    const { events } = await collectRun(webs[1], app.id, run.id, { timeoutMs: 30_000 });
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.completed");
    const notices = eventsOfType(events, "notice");
    expect(notices.map((notice) => notice.payload.kind)).toEqual(["rate_limited", "resumed"]);
    const resetAt = Date.parse((notices[0].payload.data as { reset_at: string }).reset_at);
    expect(Date.parse(notices[1].ts)).toBeGreaterThanOrEqual(resetAt - 50);
    const attempts = modelServer.requests.filter(
      (request) => request.model === "rate-limited-resume",
    );
    expect(attempts.map((request) => request.status).slice(0, 2)).toEqual([429, 200]);
    expect(attempts[1].receivedAt - attempts[0].receivedAt).toBeGreaterThanOrEqual(2_900);
    expect(await readDraftFile(webs[0], app.id, "src/App.tsx")).toContain(patchedHeading);
  });

  it("fails with CODING_AGENT_RATE_LIMITED and reset_at when the reset is beyond the longest wait", async () => {
    const app = await createApp(webs[0], "Rate limited for long");
    const run = await startRun(webs[0], app.id, {
      input: "Hello",
      model_id: "compatible:rate-limited-long",
    });
    const { events } = await collectRun(webs[1], app.id, run.id);
    expectGaplessRun(events, run);
    const failed = events.at(-1)!;
    expect(failed).toMatchObject({
      type: "run.failed",
      payload: { code: "CODING_AGENT_RATE_LIMITED", reset_at: expect.any(String) },
    });
    const waitS = (Date.parse(String(failed.payload.reset_at)) - Date.parse(failed.ts)) / 1000;
    expect(waitS).toBeGreaterThan(1_100);
    expect(await getRun(webs[0], app.id, run.id)).toMatchObject({
      status: "failed",
      error_code: "CODING_AGENT_RATE_LIMITED",
    });
  });

  it("cancels a waiting run from the other web process, and it never resumes", async () => {
    const app = await createApp(webs[0], "Cancel while waiting");
    const run = await startRun(webs[0], app.id, {
      input: "Make the heading say Hello, please",
      model_id: "compatible:rate-limited-resume",
    });
    for (let waited = 0; waited < 3_000; waited += 50) {
      if ((await getRun(webs[1], app.id, run.id)).status === "waiting") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await cancelRun(webs[1], app.id, run.id)).status).toBe(202);
    const { events } = await collectRun(webs[0], app.id, run.id, { timeoutMs: 5_000 });
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.cancelled");
    // Past the reset: nobody resumed it.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const conversationRequests = modelServer.requests.filter((request) =>
      JSON.stringify(request.body ?? "").includes("Hello, please"),
    );
    expect(conversationRequests).toHaveLength(1);
    expect(await getRun(webs[0], app.id, run.id)).toMatchObject({ status: "cancelled" });
  });

  it("runs 30 concurrent runs through the two workers, every stream gapless", async () => {
    const apps = await Promise.all(
      Array.from({ length: 30 }, (_, index) => createApp(webs[index % 2], `Load ${index}`)),
    );
    const owners = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const row of await sql<{ lease_owner: string }[]>`
          select lease_owner from agent_run where status = 'running' and lease_owner is not null`)
          owners.add(row.lease_owner);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const startedAt = performance.now();
    const results = await Promise.all(
      apps.map(async (app, index) => {
        const run = await startRun(webs[index % 2], app.id, {
          input: "Make the heading say Hello",
          model_id: "compatible:happy-path",
        });
        const { events } = await collectRun(webs[(index + 1) % 2], app.id, run.id, {
          timeoutMs: 110_000,
        });
        return { run, events };
      }),
    );
    sampling = false;
    await sampler;
    console.log(
      `[measure] 30 runs through 2 workers (4 each at a time): ${Math.round(performance.now() - startedAt)} ms`,
    );
    for (const { run, events } of results) {
      expectGaplessRun(events, run);
      expect(events.at(-1)).toMatchObject({ type: "run.completed" });
      // What was streamed is exactly what is stored: a replay from the start gives the same.
      const replay = await collectRun(webs[0], run.app_id, run.id);
      expect(replay.events).toEqual(events);
    }
    const pids = new Set([...owners].map((owner) => owner.split("/")[1]));
    expect(pids).toEqual(new Set(workers.map((worker) => String(worker.process.pid))));
  });

  // Last: connections are cut here, and what recovers slowly (pools re-opening, the queue's
  // listener) should not be what the tests after it measure.
  it("keeps a live run alive when the database drops the lease holder's connections", async () => {
    const app = await createApp(webs[0], "Backends terminated");
    const run = await startRun(webs[0], app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    const holder = await executingWorker(run.id);
    const beforeTermination = await collectRun(webs[1], app.id, run.id, { stopAfter: 6 });
    // The hazard leases replace: the connection a run's liveness rides on goes away (a failover,
    // an idle-connection killer). Here: every connection of the worker's main pool — where its
    // lease renewals and its LISTEN go — and of both web processes.
    const [terminated] = await sql<{ count: number }[]>`
      select count(pg_terminate_backend(pid))::int as count from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and (application_name = ${`patchwork:${holder.process.pid}:main`}
          or application_name in (${`patchwork:${webs[0].process.pid}:main`}, ${`patchwork:${webs[1].process.pid}:main`}))`;
    expect(terminated.count).toBeGreaterThanOrEqual(3);
    const events = await followToEnd(webs[1], run, [...beforeTermination.events]);
    expectGaplessRun(events, run);
    // Not failed by anyone: not by a sweeper (its lease is renewed over new connections), not by
    // the worker itself.
    expect(events.at(-1)).toMatchObject({ type: "run.completed" });
    expect(await getRun(webs[0], app.id, run.id)).toMatchObject({ status: "completed" });
    expect(await readDraftFile(webs[0], app.id, "src/App.tsx")).toContain(patchedHeading);
  });
});
