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
import { processesWhereEnvironment } from "@/test/support/engine-processes";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

// The real `opencode serve` from `npm run engines:install` (.engines/), driven through the API
// against the scripted model server's chat completions. Without the binary the suite says so.
const opencode = findEngineBinary("opencode", { environment: { PATH: "" } });
const skipReason = opencode.found
  ? ""
  : " (skipped: OpenCode is not installed; run npm run engines:install)";

/** `opencode serve` processes whose home is in this data directory. */
function opencodeServers(dataDir: string): number[] {
  return processesWhereEnvironment((entries) =>
    entries.some((entry) => entry.startsWith(`HOME=${dataDir}`)),
  );
}

describe.skipIf(!opencode.found).each(runTargets())(
  `OpenCode runs over HTTP on $name${skipReason}`,
  (target) => {
    let modelServer: ModelServer;
    let server: PatchworkServer;
    const dataDir = temporaryDataDir("opencode");

    beforeAll(async () => {
      modelServer = await startModelServer({ port: 0 });
      server = await startPatchworkServer({
        env: {
          ...modelServerEnvironment(modelServer.url),
          ...target.env,
          PATCHWORK_DATA_DIR: dataDir,
        },
      });
    });
    afterAll(async () => {
      await server?.stop();
      await modelServer?.close();
    });

    it("edits the heading once its change is accepted, then continues the same session", async () => {
      const app = await createApp(server, "OpenCode accept");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:opencode-edit-heading",
        engine: "opencode",
      });
      const approval = await pendingApproval(server, app.id, run.id, 60_000);
      expect(approval).toMatchObject({ kind: "file_change", description: "Edit src/App.tsx" });
      expect(approval.context.diff).toContain(`+  ${patchedHeading}`);
      expect(approval.context.diff).not.toContain(dataDir);
      expect((await decideApproval(server, app.id, run.id, approval.id, "accept")).status).toBe(
        200,
      );
      const ended = await waitForRunEnd(server, app.id, run.id, 60_000);
      expect(ended, JSON.stringify(ended)).toMatchObject({
        status: "completed",
        execution_engine: "opencode",
      });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(patchedHeading);
      const { events } = await collectRun(server, app.id, run.id);
      expectGaplessRun(events, run);
      expect(eventsOfType(events, "tool.completed").map((event) => event.payload.tool)).toEqual([
        "read",
        "edit",
      ]);
      expect(eventsOfType(events, "revision.created")).toHaveLength(1);
      const sessionId = (await api(server, `${runsPath(app.id)}/${run.id}`)).body.run
        .engine_run_ref;
      expect(sessionId).toMatch(/^ses_/);

      const followUp = await startRun(server, app.id, {
        input: "Change it again",
        model_id: "compatible:opencode-edit-heading",
        engine: "opencode",
      });
      // The heading changed already, so the scripted edit finds nothing to replace and says so.
      await waitForRunEnd(server, app.id, followUp.id, 60_000);
      const resumed = (await api(server, `${runsPath(app.id)}/${followUp.id}`)).body.run;
      expect(resumed.engine_run_ref).toBe(sessionId);
      const followUpEvents = (await collectRun(server, app.id, followUp.id)).events;
      expect(
        eventsOfType(followUpEvents, "notice").map((event) => event.payload.kind),
      ).not.toContain("engine_session_reset");
    });

    it("leaves the draft unchanged when the change is declined", async () => {
      const app = await createApp(server, "OpenCode decline");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:opencode-edit-heading",
        engine: "opencode",
      });
      const approval = await pendingApproval(server, app.id, run.id, 60_000);
      await decideApproval(server, app.id, run.id, approval.id, "decline");
      expect(await waitForRunEnd(server, app.id, run.id, 60_000)).toMatchObject({
        status: "completed",
        result_revision_id: null,
      });
      const { events } = await collectRun(server, app.id, run.id);
      expect(eventsOfType(events, "tool.failed")[0].payload).toMatchObject({
        tool: "edit",
        code: "TOOL_APPROVAL_DECLINED",
      });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
    });

    it("cancels mid-turn with nothing committed; the one OpenCode server stays for the next run", async () => {
      const app = await createApp(server, "OpenCode cancel");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:opencode-edit-then-wait",
        engine: "opencode",
      });
      const approval = await pendingApproval(server, app.id, run.id, 60_000);
      await decideApproval(server, app.id, run.id, approval.id, "accept");
      const untilEdited = await collectRun(server, app.id, run.id, {
        stopAfter: (frame) =>
          frame.event === "tool.completed" && frame.data.payload.tool === "edit",
        timeoutMs: 30_000,
      });
      expect(untilEdited.events.at(-1)?.type).toBe("tool.completed");
      expect((await cancelRun(server, app.id, run.id)).status).toBe(202);
      expect(await waitForRunEnd(server, app.id, run.id, 20_000)).toMatchObject({
        status: "cancelled",
        result_revision_id: null,
      });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
      // One server per model in the Patchwork process, by design: it outlives runs, not the process.
      expect(opencodeServers(dataDir).length).toBeGreaterThan(0);
    });

    it("refuses a model OpenCode cannot use before creating a run", async () => {
      const app = await createApp(server, "OpenCode model");
      expectErrorEnvelope(
        await api(server, runsPath(app.id), {
          method: "POST",
          body: { input: "hi", model_id: "anthropic:claude-sonnet-5-5", engine: "opencode" },
        }),
        400,
        "CODING_AGENT_MODEL_UNAVAILABLE",
      );
      expect((await api(server, runsPath(app.id))).body.runs).toEqual([]);
    });

    it("stops its OpenCode server when Patchwork stops", async () => {
      expect(opencodeServers(dataDir).length).toBeGreaterThan(0);
      await server.stop();
      const deadline = Date.now() + 5_000;
      while (opencodeServers(dataDir).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(opencodeServers(dataDir)).toEqual([]);
    });

    it("does not leave its OpenCode server behind when Patchwork is killed with -9", async () => {
      // A fresh Patchwork (the last one was stopped) that starts a server, then dies uncleanly.
      server = await startPatchworkServer({
        env: {
          ...modelServerEnvironment(modelServer.url),
          ...target.env,
          PATCHWORK_DATA_DIR: dataDir,
        },
      });
      const app = await createApp(server, "OpenCode killed");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "compatible:opencode-edit-heading",
        engine: "opencode",
        approval_policy: "auto",
      });
      await collectRun(server, app.id, run.id);
      expect(opencodeServers(dataDir).length).toBeGreaterThan(0);
      await server.kill();
      const deadline = Date.now() + 6_000;
      while (opencodeServers(dataDir).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(opencodeServers(dataDir)).toEqual([]);
    });
  },
);
