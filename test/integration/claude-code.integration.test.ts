import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeCodeEngine } from "@/lib/agent/engines/claude-code";
import { starterHeading } from "@/lib/workspace/starter-template";
import {
  builtInScenarios,
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

// The Claude Code binary the agent SDK ships, driven through the API against the scripted model
// server's Anthropic Messages API (the Anthropic provider, via ANTHROPIC_BASE_URL): the listed
// model `anthropic:claude-haiku-4-5` plays the scripted Claude edit. Without the binary the suite
// says so.
const claude = await claudeCodeEngine.status();
const skipReason = claude.available ? "" : ` (skipped: ${claude.reason})`;
const modelId = "anthropic:claude-haiku-4-5";

describe.skipIf(!claude.available).each(runTargets())(
  `Claude Code runs over HTTP on $name${skipReason}`,
  (target) => {
    let modelServer: ModelServer;
    let server: PatchworkServer;

    beforeAll(async () => {
      const edit = builtInScenarios()["claude-edit-heading"];
      modelServer = await startModelServer({
        port: 0,
        scenarios: { "claude-haiku-4-5": { ...edit, name: "claude-haiku-4-5" } },
      });
      server = await startPatchworkServer({
        env: {
          ...modelServerEnvironment(modelServer.url),
          ...target.env,
          PATCHWORK_DATA_DIR: temporaryDataDir("claude-code"),
          ANTHROPIC_API_KEY: "scripted-key",
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${modelServer.port}`,
        },
      });
    });
    afterAll(async () => {
      await server?.stop();
      await modelServer?.close();
    });

    it("edits the heading once its Edit is allowed, one revision, the session stored", async () => {
      const app = await createApp(server, "Claude accept");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: modelId,
        engine: "claude-code",
      });
      const approval = await pendingApproval(server, app.id, run.id, 60_000);
      expect(approval).toMatchObject({ kind: "file_change", description: "Edit src/App.tsx" });
      expect(approval.context.diff).toContain(`+${patchedHeading}`);
      expect((await decideApproval(server, app.id, run.id, approval.id, "accept")).status).toBe(
        200,
      );
      const ended = await waitForRunEnd(server, app.id, run.id, 60_000);
      expect(ended, JSON.stringify(ended)).toMatchObject({
        status: "completed",
        execution_engine: "claude-code",
      });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(patchedHeading);
      const { events } = await collectRun(server, app.id, run.id);
      expectGaplessRun(events, run);
      expect(eventsOfType(events, "tool.completed").map((event) => event.payload.tool)).toEqual([
        "Read",
        "Edit",
      ]);
      expect(eventsOfType(events, "revision.created")).toHaveLength(1);
      const stored = (await api(server, `${runsPath(app.id)}/${run.id}`)).body.run;
      expect(stored.engine_run_ref).toMatch(/^[0-9a-f-]{36}$/);
      expect(processesOfRun(run.id)).toEqual([]);
    });

    it("leaves the draft unchanged when the Edit is declined", async () => {
      const app = await createApp(server, "Claude decline");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: modelId,
        engine: "claude-code",
      });
      const approval = await pendingApproval(server, app.id, run.id, 60_000);
      await decideApproval(server, app.id, run.id, approval.id, "decline");
      expect(await waitForRunEnd(server, app.id, run.id, 60_000)).toMatchObject({
        status: "completed",
        result_revision_id: null,
      });
      const { events } = await collectRun(server, app.id, run.id);
      expect(eventsOfType(events, "tool.failed")[0].payload).toMatchObject({
        tool: "Edit",
        code: "TOOL_APPROVAL_DECLINED",
      });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
    });

    it("cancels mid-turn, while its Edit waits for an answer: nothing committed, no process left", async () => {
      const app = await createApp(server, "Claude cancel");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: modelId,
        engine: "claude-code",
      });
      await pendingApproval(server, app.id, run.id, 60_000);
      expect(processesOfRun(run.id).length).toBeGreaterThan(0);
      expect((await cancelRun(server, app.id, run.id)).status).toBe(202);
      expect(await waitForRunEnd(server, app.id, run.id, 20_000)).toMatchObject({
        status: "cancelled",
        result_revision_id: null,
      });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
      const deadline = Date.now() + 5_000;
      while (processesOfRun(run.id).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(processesOfRun(run.id)).toEqual([]);
    });

    it("refuses a model Claude Code cannot use before creating a run", async () => {
      const app = await createApp(server, "Claude model");
      expectErrorEnvelope(
        await api(server, runsPath(app.id), {
          method: "POST",
          body: { input: "hi", model_id: "compatible:happy-path", engine: "claude-code" },
        }),
        400,
        "CODING_AGENT_MODEL_UNAVAILABLE",
      );
      expect((await api(server, runsPath(app.id))).body.runs).toEqual([]);
    });
  },
);
