import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterHeading } from "@/lib/workspace/starter-template";
import { type ModelServer, modelServerEnvironment, startModelServer } from "@/test/model-server";
import {
  cancelRun,
  createApp,
  decideApproval,
  eventsOfType,
  expectErrorEnvelope,
  expectGaplessRun,
  readDraftFile,
  runPath,
  runsPath,
  runTargets,
  startRun,
  pendingApproval as waitForApproval,
  waitForRunEnd,
} from "@/test/support/coding-agent-runs";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

// The scripted engine (lib/agent/engines/scripted-test) exists only with PATCHWORK_TEST_ENGINES=1.
const approvedHeading = "Approved by the scripted engine";
const unknownId = "00000000-0000-4000-8000-000000000000";

describe.each(runTargets())("approvals through a folder engine on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;
  const dataDir = temporaryDataDir("approvals");

  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0 });
    server = await startPatchworkServer({
      env: {
        ...modelServerEnvironment(modelServer.url),
        ...target.env,
        PATCHWORK_DATA_DIR: dataDir,
        PATCHWORK_TEST_ENGINES: "1",
        APPS_CODING_AGENT_APPROVAL_TIMEOUT_S: "3",
        // Set but pointing nowhere: Claude Code is unavailable here, with no fallback.
        PATCHWORK_CLAUDE_BIN: "/nonexistent/claude",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  const pendingApproval = (appId: string, runId: string) => waitForApproval(server, appId, runId);
  const decide = (appId: string, runId: string, approvalId: string, decision: string) =>
    decideApproval(server, appId, runId, approvalId, decision);

  function runFolders(): string[] {
    const area = path.join(dataDir, "runs");
    return fs.existsSync(area) ? fs.readdirSync(area) : [];
  }

  it("shows the change as a pending request, applies it once accepted, and refuses a second answer", async () => {
    const app = await createApp(server, "Approve");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:happy-path",
      engine: "scripted-test",
    });
    const approval = await pendingApproval(app.id, run.id);
    expect(approval).toMatchObject({ kind: "file_change", decision: null, decided_by: null });
    expect(approval.context.paths).toEqual(["src/App.tsx"]);
    expect(approval.context.diff).toContain(`+            ${approvedHeading}`);

    const accepted = await decide(app.id, run.id, approval.id, "accept");
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.approval).toMatchObject({ decision: "accept", decided_by: "user" });
    expectErrorEnvelope(
      await decide(app.id, run.id, approval.id, "decline"),
      409,
      "APPROVAL_ALREADY_DECIDED",
    );

    const ended = await waitForRunEnd(server, app.id, run.id);
    expect(ended.status).toBe("completed");
    expect(ended.result_revision_id).not.toBeNull();
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(approvedHeading);
    const { events } = await collectRun(server, app.id, run.id);
    expectGaplessRun(events, run);
    expect(eventsOfType(events, "approval.requested")[0].payload).toMatchObject({
      approval_id: approval.id,
      kind: "file_change",
    });
    expect(eventsOfType(events, "approval.resolved")[0].payload).toEqual({
      approval_id: approval.id,
      decision: "accept",
      decided_by: "user",
    });
    expect(eventsOfType(events, "tool.completed")).toHaveLength(1);
    expect(eventsOfType(events, "revision.created")).toHaveLength(1);
    expect(runFolders()).toEqual([]);
  });

  it("leaves the draft unchanged when the person declines", async () => {
    const app = await createApp(server, "Decline");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:happy-path",
      engine: "scripted-test",
    });
    const approval = await pendingApproval(app.id, run.id);
    expect((await decide(app.id, run.id, approval.id, "decline")).status).toBe(200);
    const ended = await waitForRunEnd(server, app.id, run.id);
    expect(ended).toMatchObject({ status: "completed", result_revision_id: null });
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
    const { events } = await collectRun(server, app.id, run.id);
    expect(eventsOfType(events, "tool.failed")[0].payload).toMatchObject({
      code: "TOOL_APPROVAL_DECLINED",
    });
    expect(runFolders()).toEqual([]);
  });

  it("declines by timeout when nobody answers, shown as decided by the timeout", async () => {
    const app = await createApp(server, "Timeout");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:happy-path",
      engine: "scripted-test",
    });
    const approval = await pendingApproval(app.id, run.id);
    const ended = await waitForRunEnd(server, app.id, run.id, 20_000);
    expect(ended).toMatchObject({ status: "completed", result_revision_id: null });
    const after = await api(server, runPath(app.id, run.id));
    expect(after.body.approvals).toEqual([
      expect.objectContaining({ id: approval.id, decision: "decline", decided_by: "timeout" }),
    ]);
    expectErrorEnvelope(
      await decide(app.id, run.id, approval.id, "accept"),
      409,
      "APPROVAL_ALREADY_DECIDED",
    );
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
  });

  it("cancels while an accepted change waits, committing nothing and removing the folder", async () => {
    const app = await createApp(server, "Cancel");
    const run = await startRun(server, app.id, {
      input: "Change the heading and wait for stop",
      model_id: "compatible:happy-path",
      engine: "scripted-test",
    });
    const approval = await pendingApproval(app.id, run.id);
    expect((await decide(app.id, run.id, approval.id, "accept")).status).toBe(200);
    const cancelled = await cancelRun(server, app.id, run.id);
    expect(cancelled.status).toBe(202);
    const ended = await waitForRunEnd(server, app.id, run.id);
    expect(ended).toMatchObject({ status: "cancelled", result_revision_id: null });
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
    expect(runFolders()).toEqual([]);
  });

  it("answers 404 for an unknown request and refuses engines that cannot run, creating no run", async () => {
    const app = await createApp(server, "Refusals");
    expectErrorEnvelope(
      await api(server, `${runPath(app.id, unknownId)}/approvals/${unknownId}`, {
        method: "POST",
        body: { decision: "accept" },
      }),
      404,
      "NOT_FOUND",
    );
    expectErrorEnvelope(
      await api(server, runsPath(app.id), {
        method: "POST",
        body: { input: "hi", model_id: "compatible:happy-path", engine: "claude-code" },
      }),
      400,
      "CODING_AGENT_ENGINE_UNAVAILABLE",
    );
    expectErrorEnvelope(
      await api(server, runsPath(app.id), {
        method: "POST",
        body: { input: "hi", model_id: "compatible:happy-path", engine: "no-such-engine" },
      }),
      400,
      "VALIDATION_FAILED",
    );
    const runs = await api(server, runsPath(app.id));
    expect(runs.body.runs).toEqual([]);
    const engines = await api(server, "/api/engines");
    expect(engines.body.engines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: "native", available: true }),
        expect.objectContaining({ id: "scripted-test", available: true }),
      ]),
    );
  });
});
