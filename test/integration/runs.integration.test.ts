import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterHeading } from "@/lib/workspace/starter-template";
import {
  happyPathScenario,
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
  expectErrorEnvelope,
  expectGaplessRun,
  getRun,
  listRevisions,
  readDraftFile,
  runPath,
  runsPath,
  runTargets,
  startRun,
  waitForRunEnd,
} from "@/test/support/coding-agent-runs";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";
import { collectRun, type RunEventData } from "@/test/support/sse-client";

const unknownId = "00000000-0000-4000-8000-000000000000";

/** Every tool.started has exactly one tool.completed or tool.failed after it, with the same call. */
function toolCalls(events: RunEventData[]) {
  const started = eventsOfType(events, "tool.started");
  return started.map((start) => {
    const endings = events.filter(
      (event) =>
        (event.type === "tool.completed" || event.type === "tool.failed") &&
        event.payload.call_id === start.payload.call_id,
    );
    expect(endings, `call ${start.payload.call_id}`).toHaveLength(1);
    expect(endings[0].seq).toBeGreaterThan(start.seq);
    expect(endings[0].payload.tool).toBe(start.payload.tool);
    return {
      tool: start.payload.tool as string,
      title: start.payload.title as string,
      end: endings[0],
    };
  });
}

describe.each(runTargets())("coding-agent runs on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;

  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0 });
    server = await startPatchworkServer({
      env: {
        ...modelServerEnvironment(modelServer.url),
        ...target.env,
        // Set but pointing nowhere: the engine is unavailable, with no fallback to .engines/.
        PATCHWORK_CODEX_BIN: "/nonexistent/codex",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  it("answers 201 at once, streams the run in order, and leaves one agent revision between checkpoints", async () => {
    const app = await createApp(server, "Happy path");
    const run = await startRun(server, app.id, {
      input: "Make the heading say Hello",
      model_id: "compatible:happy-path",
    });
    expect(run).toMatchObject({
      app_id: app.id,
      // PGlite executes it at once; on Postgres it waits on the queue for a worker.
      status: target.name === "pglite" ? "running" : "queued",
      requested_model_id: "compatible:happy-path",
      resolved_model_id: "compatible:happy-path",
      execution_engine: "native",
      base_revision_id: app.draft_revision_id,
      result_revision_id: null,
    });

    const stream = await collectRun(server, app.id, run.id);
    expect(stream.endedByServer).toBe(true);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("cache-control")).toMatch(/no-cache/);
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    const { events, frames } = stream;
    expectGaplessRun(events, run);
    for (const frame of frames) {
      expect(frame.id).toBe(String(frame.data.seq));
      expect(frame.event).toBe(frame.data.type);
    }

    expect(events[0]).toMatchObject({
      type: "run.accepted",
      payload: {
        requested_model_id: "compatible:happy-path",
        resolved_model_id: "compatible:happy-path",
        engine: "native",
        base_revision_id: app.draft_revision_id,
      },
    });
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(
      events.filter((event) =>
        ["run.completed", "run.failed", "run.cancelled"].includes(event.type),
      ),
    ).toHaveLength(1);
    expect(eventsOfType(events, "reasoning.delta").length).toBeGreaterThan(0);
    const text = assistantText(events);
    expect(text).toContain("I'll update the heading. First, let me read src/App.tsx.");
    expect(text).toContain(`to “${patchedHeading}”.`);
    // Text is shown off the wire and the SDK's copy stripped: every word exactly once, each step's
    // text before that step's tool call, the reasoning before the text.
    const stepTexts = happyPathScenario().steps.map((step) =>
      typeof step === "function" ? "" : (step.text ?? []).join(""),
    );
    expect(text).toBe(stepTexts.join(""));
    const toolStarts = events.flatMap((event, index) =>
      event.type === "tool.started" ? [index] : [],
    );
    expect(assistantText(events.slice(0, toolStarts[0]))).toBe(stepTexts[0]);
    expect(assistantText(events.slice(0, toolStarts[1]))).toBe(stepTexts[0] + stepTexts[1]);
    expect(events.findIndex((event) => event.type === "reasoning.delta")).toBeLessThan(
      events.findIndex((event) => event.type === "assistant.delta"),
    );

    const calls = toolCalls(events);
    expect(calls.map((call) => [call.tool, call.title, call.end.type])).toEqual([
      ["read_file_range", "Read src/App.tsx", "tool.completed"],
      ["apply_patch", "Edit src/App.tsx", "tool.completed"],
    ]);
    for (const call of calls) {
      expect(call.end.payload).toMatchObject({
        summary: expect.any(String),
        duration_ms: expect.any(Number),
      });
    }

    const [revisionCreated] = eventsOfType(events, "revision.created");
    const [checkpointCreated] = eventsOfType(events, "checkpoint.created");
    const [usage] = eventsOfType(events, "usage");
    expect(revisionCreated.payload).toMatchObject({
      revision_id: expect.any(String),
      parent_revision_id: app.draft_revision_id,
      files_changed: [{ path: "src/App.tsx", status: "modified", additions: 1, deletions: 1 }],
      additions: 1,
      deletions: 1,
    });
    const revisionId = revisionCreated.payload.revision_id as string;
    expect(checkpointCreated.payload).toMatchObject({
      kind: "post_run",
      revision_id: revisionId,
      checkpoint_id: expect.any(String),
    });
    expect(usage.payload).toMatchObject({
      input_tokens: 1_200 + 2_600 + 2_900,
      output_tokens: 40 + 120 + 30,
      cache_read_input_tokens: expect.any(Number),
      cache_creation_input_tokens: expect.any(Number),
    });
    expect(usage.payload).toHaveProperty("total_cost_usd");
    const order = [
      "run.accepted",
      "tool.completed",
      "revision.created",
      "checkpoint.created",
      "usage",
      "run.completed",
    ].map((type) => events.findIndex((event) => event.type === type));
    expect(order).toEqual([...order].sort((left, right) => left - right));
    expect(events.at(-1)?.payload).toMatchObject({ result_revision_id: revisionId });

    const finished = await getRun(server, app.id, run.id);
    expect(finished).toMatchObject({
      status: "completed",
      result_revision_id: revisionId,
      error_code: null,
      output_text: text,
    });

    const source = await readDraftFile(server, app.id, "src/App.tsx");
    expect(source).toContain(patchedHeading);
    expect(source).not.toContain(starterHeading);

    const history = await listRevisions(server, app.id);
    expect(history.draft_revision_id).toBe(revisionId);
    expect(history.revisions.find((revision) => revision.id === revisionId)).toMatchObject({
      source: "agent",
      run_id: run.id,
      parent_revision_id: app.draft_revision_id,
    });
    const checkpoints = (await api(server, `/api/apps/${app.id}/coding-agent/checkpoints`)).body
      .checkpoints as {
      kind: string;
      revision_id: string;
      run_id: string | null;
    }[];
    const runCheckpoints = checkpoints.filter((checkpoint) => checkpoint.run_id === run.id);
    expect(
      runCheckpoints
        .map(({ kind, revision_id }) => ({ kind, revision_id }))
        .sort((left, right) => left.kind.localeCompare(right.kind)),
    ).toEqual([
      { kind: "post_run", revision_id: revisionId },
      { kind: "pre_run", revision_id: app.draft_revision_id },
    ]);

    const listed = await api(server, runsPath(app.id));
    expect(
      listed.body.runs.map((item: { id: string; status: string }) => [item.id, item.status]),
    ).toEqual([[run.id, "completed"]]);
    const modelCalls = modelServer.requests.filter((request) => request.model === "happy-path");
    expect(
      modelCalls.map((request) => [request.stepIndex, request.status, request.expectationFailure]),
    ).toEqual([
      [0, 200, undefined],
      [1, 200, undefined],
      [2, 200, undefined],
    ]);
  });

  it("reports a failed patch with its code and refresh advice, then completes after the re-read", async () => {
    const app = await createApp(server, "Patch retry");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:patch-retry",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.completed");

    const calls = toolCalls(events);
    expect(calls.map((call) => [call.tool, call.end.type])).toEqual([
      ["apply_patch", "tool.failed"],
      ["read_file_range", "tool.completed"],
      ["apply_patch", "tool.completed"],
    ]);
    expect(calls[0].title).toBe("Edit src/App.tsx");
    expect(calls[1].title).toMatch(/^Read src\/App\.tsx \(lines \d+–\d+\)$/);
    const failure = calls[0].end.payload;
    expect(failure).toMatchObject({
      tool: "apply_patch",
      code: expect.stringMatching(/^PATCH_/),
      message: expect.any(String),
      patch_code: expect.stringMatching(/^PATCH_/),
      patch_failure_count: 1,
      recommended_refresh: ["src/App.tsx"],
      diagnostics: expect.any(Array),
    });
    expect(failure.code).toBe(failure.patch_code);
    expect((failure.diagnostics as unknown[]).length).toBeGreaterThan(0);

    const source = await readDraftFile(server, app.id, "src/App.tsx");
    expect(source).toContain(patchedHeading);
    expect(source).not.toContain(starterHeading);
    expect(eventsOfType(events, "revision.created")).toHaveLength(1);
  });

  it("answers malformed tool arguments with TOOL_INPUT_VALIDATION_FAILED and goes on", async () => {
    const app = await createApp(server, "Malformed arguments");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:malformed-args",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.completed");

    const calls = toolCalls(events);
    expect(calls.map((call) => [call.tool, call.end.type, call.end.payload.code ?? null])).toEqual([
      ["read_file_range", "tool.failed", "TOOL_INPUT_VALIDATION_FAILED"],
      ["read_file_range", "tool.failed", "TOOL_INPUT_VALIDATION_FAILED"],
      ["read_file_range", "tool.completed", null],
      ["apply_patch", "tool.completed", null],
    ]);
    expect(calls[0].end.payload.fields).toEqual([
      { field: "(arguments)", message: expect.any(String) },
    ]);
    expect(calls[1].end.payload.fields).toEqual([{ field: "path", message: expect.any(String) }]);
    // The wrapped {input: {file_path}} call was normalised, so it reads the right file.
    expect(calls[2].title).toBe("Read src/App.tsx");
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(patchedHeading);
  });

  it("refuses a second run while one is active with 409 CODING_AGENT_RUN_ACTIVE, and accepts one after", async () => {
    const app = await createApp(server, "One at a time");
    const first = await startRun(server, app.id, {
      input: "Take your time",
      model_id: "compatible:slow-stream",
    });
    const second = await api(server, runsPath(app.id), {
      method: "POST",
      body: { input: "Me too", model_id: "compatible:text-only" },
    });
    expectErrorEnvelope(second, 409, "CODING_AGENT_RUN_ACTIVE");
    expect(second.body).toEqual({
      error: {
        code: "CODING_AGENT_RUN_ACTIVE",
        message: expect.any(String),
        details: { active_run_id: first.id },
      },
    });

    expect((await cancelRun(server, app.id, first.id)).status).toBe(202);
    expect((await waitForRunEnd(server, app.id, first.id)).status).toBe("cancelled");
    const third = await startRun(server, app.id, {
      input: "Now me",
      model_id: "compatible:text-only",
    });
    const { events } = await collectRun(server, app.id, third.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(assistantText(events)).toContain("Patchwork edits your app");
    const listed = await api(server, runsPath(app.id));
    expect(
      listed.body.runs.map((item: { id: string; status: string }) => [item.id, item.status]),
    ).toEqual([
      [first.id, "cancelled"],
      [third.id, "completed"],
    ]);
  });

  it("validates run requests before any work and answers 404 for unknown runs", async () => {
    const app = await createApp(server, "Validation");
    const create = (body: unknown) => api(server, runsPath(app.id), { method: "POST", body });

    const unknownModel = await create({ input: "Hi", model_id: "compatible:no-such-scenario" });
    expectErrorEnvelope(unknownModel, 400, "CODING_AGENT_MODEL_UNAVAILABLE");
    expect(unknownModel.body.error.details).toMatchObject({
      model_id: "compatible:no-such-scenario",
    });
    expectErrorEnvelope(
      await create({ input: "Hi", model_id: "gpt-nonexistent" }),
      400,
      "CODING_AGENT_MODEL_UNAVAILABLE",
    );
    expectErrorEnvelope(
      await create({ input: "Hi", engine: "warp-drive" }),
      400,
      "VALIDATION_FAILED",
    );
    const codex = await create({ input: "Hi", engine: "codex", model_id: "compatible:text-only" });
    expectErrorEnvelope(codex, 400, "CODING_AGENT_ENGINE_UNAVAILABLE");
    expect(codex.body.error.message).toMatch(/PATCHWORK_CODEX_BIN is set to \/nonexistent\/codex/);
    expectErrorEnvelope(await create({ input: "" }), 400, "VALIDATION_FAILED");
    expectErrorEnvelope(await create({ input: "   " }), 400, "VALIDATION_FAILED");
    expectErrorEnvelope(await create({}), 400, "VALIDATION_FAILED");
    expectErrorEnvelope(await create({ input: "Hi", surprise: true }), 400, "VALIDATION_FAILED");
    expectErrorEnvelope(await create("{not json"), 400, "VALIDATION_FAILED");
    expectErrorEnvelope(
      await api(server, runsPath(unknownId), {
        method: "POST",
        body: { input: "Hi", model_id: "compatible:text-only" },
      }),
      404,
      "NOT_FOUND",
    );
    // None of the refused requests left a run behind.
    expect((await api(server, runsPath(app.id))).body.runs).toEqual([]);

    expectErrorEnvelope(await api(server, runPath(app.id, unknownId)), 404, "NOT_FOUND");
    expectErrorEnvelope(
      await api(server, `${runPath(app.id, unknownId)}/stream`),
      404,
      "NOT_FOUND",
    );
    expectErrorEnvelope(await cancelRun(server, app.id, unknownId), 404, "NOT_FOUND");
    expectErrorEnvelope(await api(server, runPath(app.id, "not-a-uuid")), 400, "VALIDATION_FAILED");

    // A run is reachable only under its own app.
    const run = await startRun(server, app.id, { input: "Hi", model_id: "compatible:text-only" });
    const otherApp = await createApp(server, "Someone else");
    expectErrorEnvelope(await api(server, runPath(otherApp.id, run.id)), 404, "NOT_FOUND");
    expectErrorEnvelope(
      await api(server, `${runPath(otherApp.id, run.id)}/stream`),
      404,
      "NOT_FOUND",
    );
    expectErrorEnvelope(await cancelRun(server, otherApp.id, run.id), 404, "NOT_FOUND");
    expect((await waitForRunEnd(server, app.id, run.id)).status).toBe("completed");
  });
});
