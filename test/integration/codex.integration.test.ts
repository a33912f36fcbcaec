import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEngineBinary } from "@/lib/agent/engines/engine-binaries";
import { starterHeading } from "@/lib/workspace/starter-template";
import {
  type ModelServer,
  modelServerEnvironment,
  patchedHeading,
  startModelServer,
} from "@/test/model-server";
import {
  cancelRun,
  createApp,
  decideApproval,
  eventsOfType,
  expectErrorEnvelope,
  expectGaplessRun,
  pendingApproval,
  readDraftFile,
  runsPath,
  runTargets,
  startRun,
  waitForRunEnd,
} from "@/test/support/coding-agent-runs";
import { processesOfRun } from "@/test/support/engine-processes";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

// The real `codex app-server` from `npm run engines:install` (.engines/), driven through the API
// against the scripted model server's Responses API. Without the binary the suite says so.
const codex = findEngineBinary("codex", { environment: { PATH: "" } });
const skipReason = codex.found
  ? ""
  : " (skipped: Codex is not installed; run npm run engines:install)";

describe.skipIf(!codex.found).each(runTargets())(
  `Codex runs over HTTP on $name${skipReason}`,
  (target) => {
    let modelServer: ModelServer;
    let server: PatchworkServer;
    const dataDir = temporaryDataDir("codex");

    beforeAll(async () => {
      modelServer = await startModelServer({ port: 0 });
      server = await startPatchworkServer({
        env: {
          ...modelServerEnvironment(modelServer.url),
          ...target.env,
          PATCHWORK_DATA_DIR: dataDir,
          APPS_CODING_AGENT_APPROVAL_TIMEOUT_S: "4",
        },
      });
    });
    afterAll(async () => {
      await server?.stop();
      await modelServer?.close();
    });

    const runFolders = () => {
      const area = path.join(dataDir, "runs");
      return fs.existsSync(area) ? fs.readdirSync(area) : [];
    };

    it("is offered by GET /api/engines with its version", async () => {
      const engines = await api(server, "/api/engines");
      expect(engines.body.engines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: "codex",
            available: true,
            version: "0.169.0",
            model_providers: ["openai", "compatible"],
          }),
        ]),
      );
      // Where the binaries live stays on the server.
      expect(JSON.stringify(engines.body)).not.toContain("/node_modules/");
      expect(engines.body.engines[0]).not.toHaveProperty("binaryPath");
    });

    it("edits the heading once its change is accepted, then resumes the same thread", async () => {
      const app = await createApp(server, "Codex accept");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:codex-edit-heading",
        engine: "codex",
      });
      const approval = await pendingApproval(server, app.id, run.id);
      expect(approval).toMatchObject({
        kind: "file_change",
        description: "Edit src/App.tsx",
        context: { paths: ["src/App.tsx"] },
      });
      expect(approval.context.diff).toContain(`+            ${patchedHeading}`);
      expect((await decideApproval(server, app.id, run.id, approval.id, "accept")).status).toBe(
        200,
      );

      const ended = await waitForRunEnd(server, app.id, run.id, 30_000);
      expect(ended, JSON.stringify(ended)).toMatchObject({
        status: "completed",
        execution_engine: "codex",
      });
      expect(ended.result_revision_id).not.toBeNull();
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(patchedHeading);
      const { events } = await collectRun(server, app.id, run.id);
      expectGaplessRun(events, run);
      const types = events.map((event) => event.type);
      expect(types.indexOf("tool.started")).toBeLessThan(types.indexOf("approval.requested"));
      expect(types.indexOf("approval.resolved")).toBeLessThan(types.indexOf("tool.completed"));
      expect(eventsOfType(events, "tool.completed")[0].payload).toMatchObject({
        tool: "file_change",
        title: "Edit src/App.tsx",
        files: ["src/App.tsx"],
      });
      expect(eventsOfType(events, "revision.created")).toHaveLength(1);
      expect(eventsOfType(events, "checkpoint.created").length).toBeGreaterThanOrEqual(1);
      const threadId = (await api(server, `${runsPath(app.id)}/${run.id}`)).body.run.engine_run_ref;
      expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
      expect(runFolders()).toEqual([]);

      const followUp = await startRun(server, app.id, {
        input: "Change it again",
        model_id: "compatible:codex-edit-heading",
        engine: "codex",
      });
      // The heading already changed, so Codex finds its patch no longer applies and says so.
      await waitForRunEnd(server, app.id, followUp.id, 30_000);
      const resumed = (await api(server, `${runsPath(app.id)}/${followUp.id}`)).body.run;
      expect(resumed.engine_run_ref).toBe(threadId);
      const followUpEvents = (await collectRun(server, app.id, followUp.id)).events;
      expect(
        eventsOfType(followUpEvents, "notice").map((event) => event.payload.kind),
      ).not.toContain("engine_session_reset");
    });

    it("leaves the draft unchanged when the change is declined, or nobody answers in time", async () => {
      const app = await createApp(server, "Codex decline");
      const declined = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:codex-edit-heading",
        engine: "codex",
      });
      const approval = await pendingApproval(server, app.id, declined.id);
      expect(
        (await decideApproval(server, app.id, declined.id, approval.id, "decline")).status,
      ).toBe(200);
      expect(await waitForRunEnd(server, app.id, declined.id, 30_000)).toMatchObject({
        status: "completed",
        result_revision_id: null,
      });
      const { events } = await collectRun(server, app.id, declined.id);
      expect(eventsOfType(events, "tool.failed")[0].payload).toMatchObject({
        tool: "file_change",
        code: "TOOL_APPROVAL_DECLINED",
      });

      const unanswered = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:codex-edit-heading",
        engine: "codex",
      });
      const waiting = await pendingApproval(server, app.id, unanswered.id);
      await waitForRunEnd(server, app.id, unanswered.id, 30_000);
      const after = await api(server, `${runsPath(app.id)}/${unanswered.id}`);
      expect(after.body.approvals).toEqual([
        expect.objectContaining({ id: waiting.id, decision: "decline", decided_by: "timeout" }),
      ]);
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
    });

    it("cancels mid-turn: nothing committed and no codex process left", async () => {
      const app = await createApp(server, "Codex cancel");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:codex-edit-then-wait",
        engine: "codex",
      });
      const approval = await pendingApproval(server, app.id, run.id);
      await decideApproval(server, app.id, run.id, approval.id, "accept");
      // The edit is in the run's folder; Codex now streams a reply that never ends.
      const untilEdited = await collectRun(server, app.id, run.id, {
        stopAfter: (frame) => frame.event === "tool.completed",
        timeoutMs: 20_000,
      });
      expect(untilEdited.events.at(-1)?.type).toBe("tool.completed");
      expect(processesOfRun(run.id).length).toBeGreaterThan(0);
      expect((await cancelRun(server, app.id, run.id)).status).toBe(202);
      const ended = await waitForRunEnd(server, app.id, run.id, 20_000);
      expect(ended).toMatchObject({ status: "cancelled", result_revision_id: null });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
      expect(processesOfRun(run.id)).toEqual([]);
      expect(runFolders()).toEqual([]);
    });

    it("refuses a model Codex cannot use before creating a run", async () => {
      const app = await createApp(server, "Codex model");
      expectErrorEnvelope(
        await api(server, runsPath(app.id), {
          method: "POST",
          body: { input: "hi", model_id: "ollama:llama3", engine: "codex" },
        }),
        400,
        "CODING_AGENT_MODEL_UNAVAILABLE",
      );
      expect((await api(server, runsPath(app.id))).body.runs).toEqual([]);
    });
  },
);
