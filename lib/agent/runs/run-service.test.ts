import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { getRunById, listEventsAfter, updateRun } from "@/db/queries/runs";
import { getAppById } from "@/db/queries/apps";
import { resetEnvironmentForTests } from "@/lib/env";
import { PatchworkError } from "@/lib/errors";
import { resetModelDiscoveryCache } from "@/lib/models";
import { createApp, listCheckpoints, readFile } from "@/lib/workspace";
import { starterHeading, starterTemplateFiles } from "@/lib/workspace/starter-template";
import { modelServerEnvironment, patchedHeading, startModelServer } from "@/test/model-server";
import { testDatabases } from "@/test/support/databases";
import { localExecutions } from "./run-executor";
import { recoverInterruptedRuns } from "./run-recovery";
import { cancelRun, createRun } from "./run-service";

type ModelServer = Awaited<ReturnType<typeof startModelServer>>;
const savedEnvironment = { ...process.env };

/** Waits for the run to end, wherever it executes (here, or a queue worker of this process). */
async function waitForRun(handle: DatabaseHandle, runId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await localExecutions().get(runId)?.done;
    const run = await getRunById(handle.db, { id: runId });
    if (run && !["queued", "running", "waiting"].includes(run.status)) return;
    if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The run's execution in this process, once a worker has claimed it. */
async function executionOf(runId: string) {
  for (let waited = 0; waited < 10_000; waited += 10) {
    const execution = localExecutions().get(runId);
    if (execution) return execution;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`run ${runId} never started here`);
}

async function eventsOf(handle: DatabaseHandle, runId: string) {
  return listEventsAfter(handle.db, { runId, seq: 0, limit: 10_000 });
}

describe.each(testDatabases())("run service in process on $name", (database) => {
  let handle: DatabaseHandle;
  let modelServer: ModelServer;

  beforeAll(async () => {
    handle = await database.open();
    modelServer = await startModelServer({ port: 0 });
    Object.assign(process.env, modelServerEnvironment(modelServer.url), {
      APPS_CODING_AGENT_TOOL_TIMEOUT_S: "3",
    });
    resetEnvironmentForTests();
    resetModelDiscoveryCache();
  });
  afterEach(async () => {
    await Promise.all([...localExecutions().values()].map((execution) => execution.done));
  });
  afterAll(async () => {
    await modelServer?.close();
    await handle?.close();
    process.env = { ...savedEnvironment };
    resetEnvironmentForTests();
    resetModelDiscoveryCache();
  });

  it("runs the happy path into one agent revision between checkpoints", async () => {
    const app = await createApp(handle.db, { name: "run", files: starterTemplateFiles });
    const run = await createRun(handle, {
      appId: app.id,
      input: "Make the heading say Hello",
      modelId: "compatible:happy-path",
    });
    expect(run).toMatchObject({
      requestedModelId: "compatible:happy-path",
      resolvedModelId: "compatible:happy-path",
      executionEngine: "native",
    });
    await waitForRun(handle, run.id);
    const events = await eventsOf(handle, run.id);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("run.accepted");
    expect(types.at(-1)).toBe("run.completed");
    expect(types).toContain("assistant.delta");
    expect(types.filter((type) => type === "tool.started")).toHaveLength(
      types.filter((type) => type === "tool.completed").length,
    );
    expect(types.indexOf("revision.created")).toBeLessThan(types.indexOf("checkpoint.created"));
    const file = await readFile(handle.db, { appId: app.id, path: "src/App.tsx" });
    expect(file.content).toContain(patchedHeading);
    expect(file.content).not.toContain(starterHeading);
    const kinds = (await listCheckpoints(handle.db, { appId: app.id }))
      .map((checkpoint) => checkpoint.kind)
      .sort();
    expect(kinds).toEqual(["post_run", "pre_run"]);
  });

  it("leaves no checkpoint behind a run that changed nothing", async () => {
    const app = await createApp(handle.db, { name: "talk", files: starterTemplateFiles });
    const before = await listCheckpoints(handle.db, { appId: app.id });
    const run = await createRun(handle, {
      appId: app.id,
      input: "What does this app do?",
      modelId: "compatible:text-only",
    });
    // While it runs, the pre-run checkpoint exists (a run that does change files needs it).
    expect(
      (await listCheckpoints(handle.db, { appId: app.id })).map((checkpoint) => checkpoint.kind),
    ).toContain("pre_run");
    await waitForRun(handle, run.id);
    const types = (await eventsOf(handle, run.id)).map((event) => event.type);
    expect(types.at(-1)).toBe("run.completed");
    expect(types).not.toContain("revision.created");
    expect(await listCheckpoints(handle.db, { appId: app.id })).toEqual(before);
  });

  it("refuses a second active run and an unknown model", async () => {
    const app = await createApp(handle.db, { name: "busy", files: starterTemplateFiles });
    const first = await createRun(handle, {
      appId: app.id,
      input: "slow please",
      modelId: "compatible:slow-stream",
    });
    const error = await createRun(handle, {
      appId: app.id,
      input: "again",
      modelId: "compatible:happy-path",
    }).catch((caught) => caught);
    expect(PatchworkError.isInstance(error) && error.code).toBe("CODING_AGENT_RUN_ACTIVE");
    await cancelRun(handle, { appId: app.id, runId: first.id });
    await waitForRun(handle, first.id);
    const events = await eventsOf(handle, first.id);
    expect(events.at(-1)?.type).toBe("run.cancelled");
    expect(events.some((event) => event.type === "revision.created")).toBe(false);
    const unknown = await createRun(handle, {
      appId: app.id,
      input: "x",
      modelId: "compatible:nope",
    }).catch((caught) => caught);
    expect(PatchworkError.isInstance(unknown) && unknown.code).toBe(
      "CODING_AGENT_MODEL_UNAVAILABLE",
    );
  });

  it("feeds patch failures back and recovers", async () => {
    const app = await createApp(handle.db, { name: "retry", files: starterTemplateFiles });
    const run = await createRun(handle, {
      appId: app.id,
      input: "Change the heading",
      modelId: "compatible:patch-retry",
    });
    await waitForRun(handle, run.id);
    const events = await eventsOf(handle, run.id);
    const failed = events.find((event) => event.type === "tool.failed");
    expect(failed?.payload).toMatchObject({
      tool: "apply_patch",
      patch_failure_count: 1,
      patch_code: expect.any(String),
    });
    expect(events.at(-1)?.type).toBe("run.completed");
    expect((await readFile(handle.db, { appId: app.id, path: "src/App.tsx" })).content).toContain(
      patchedHeading,
    );
  });

  it("answers malformed tool arguments with a validation failure and goes on", async () => {
    const app = await createApp(handle.db, { name: "malformed", files: starterTemplateFiles });
    const run = await createRun(handle, {
      appId: app.id,
      input: "Change the heading",
      modelId: "compatible:malformed-args",
    });
    await waitForRun(handle, run.id);
    const events = await eventsOf(handle, run.id);
    const validation = events.filter(
      (event) =>
        event.type === "tool.failed" && event.payload.code === "TOOL_INPUT_VALIDATION_FAILED",
    );
    expect(validation.length).toBeGreaterThanOrEqual(1);
    expect(validation[0].payload.fields).toEqual(expect.any(Array));
    expect(events.at(-1)?.type).toBe("run.completed");
  });

  it("fails a hung model within the tool-time limit and keeps the draft", async () => {
    const app = await createApp(handle.db, { name: "hang", files: starterTemplateFiles });
    const started = Date.now();
    const run = await createRun(handle, {
      appId: app.id,
      input: "hello",
      modelId: "compatible:hang",
    });
    await waitForRun(handle, run.id);
    expect(Date.now() - started).toBeLessThan(8_000);
    const last = (await eventsOf(handle, run.id)).at(-1);
    expect(last).toMatchObject({
      type: "run.failed",
      payload: { code: "CODING_AGENT_MODEL_TIMEOUT" },
    });
  });

  it("pauses mid-run at a rate limit with its change kept aside, then lands one revision", async () => {
    const app = await createApp(handle.db, { name: "paused", files: starterTemplateFiles });
    const run = await createRun(handle, {
      appId: app.id,
      input: "Make the heading say Hello",
      modelId: "compatible:rate-limited-mid-run",
    });
    let paused = await getRunById(handle.db, { id: run.id });
    for (let waited = 0; waited < 5_000 && paused?.status !== "waiting"; waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      paused = await getRunById(handle.db, { id: run.id });
    }
    expect(paused).toMatchObject({ status: "waiting", leaseOwner: null });
    expect(paused?.resumeAt).toBeInstanceOf(Date);
    // The work so far is a revision of its own; the draft has not moved.
    expect(paused?.pausedRevisionId).not.toBe(app.draftRevisionId);
    expect((await getAppById(handle.db, { id: app.id }))?.draftRevisionId).toBe(
      app.draftRevisionId,
    );
    await waitForRun(handle, run.id);
    const events = await eventsOf(handle, run.id);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(
      events.filter((event) => event.type === "notice").map((event) => event.payload.kind),
    ).toEqual(["rate_limited", "resumed"]);
    expect(events.at(-1)?.type).toBe("run.completed");
    const created = events.filter((event) => event.type === "revision.created");
    expect(created).toHaveLength(1);
    expect(created[0].payload.parent_revision_id).toBe(app.draftRevisionId);
    expect((await readFile(handle.db, { appId: app.id, path: "src/App.tsx" })).content).toContain(
      patchedHeading,
    );
  });

  it("marks runs left by a dead process as interrupted", async () => {
    const app = await createApp(handle.db, { name: "orphan", files: starterTemplateFiles });
    const run = await createRun(handle, {
      appId: app.id,
      input: "slow",
      modelId: "compatible:slow-stream",
    });
    // Pretend this process died: forget the execution and let its lease run out, then let
    // recovery find the run.
    const execution = await executionOf(run.id);
    localExecutions().delete(run.id);
    await updateRun(handle.db, { id: run.id, leaseExpiresAt: new Date(Date.now() - 1000) });
    const recovered = await recoverInterruptedRuns(handle);
    expect(recovered).toContain(run.id);
    execution.controller.abort();
    await execution.done;
    const events = await eventsOf(handle, run.id);
    expect(
      events.filter((event) =>
        ["run.completed", "run.failed", "run.cancelled"].includes(event.type),
      ),
    ).toHaveLength(1);
    expect(events.find((event) => event.type === "run.failed")?.payload.code).toBe(
      "CODING_AGENT_RUN_INTERRUPTED",
    );
  });
});
