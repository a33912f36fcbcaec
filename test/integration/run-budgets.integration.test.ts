import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEngineBinary } from "@/lib/agent/engines/engine-binaries";
import { starterHeading } from "@/lib/workspace/starter-template";
import {
  headingPatch,
  type ModelServer,
  modelServerEnvironment,
  type Scenario,
  startModelServer,
} from "@/test/model-server";
import {
  createApp,
  eventsOfType,
  readDraftFile,
  runTargets,
  startRun,
  waitForRunEnd,
} from "@/test/support/coding-agent-runs";
import {
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

const read = {
  name: "read_file_range",
  arguments: { path: "src/App.tsx", start_line: 1, end_line: 20 },
};

// `gpt-5.5` has a list price, so a step that reports two million prompt tokens costs about $10:
// past the default cap of $2. The same script answers chat completions (native) and the Responses
// API (Codex).
const scenarios: Record<string, Scenario> = {
  "gpt-5.5": {
    name: "gpt-5.5",
    steps: [
      {
        text: ["Thinking very hard."],
        tool_calls: [{ name: "apply_patch", arguments: { patch: headingPatch() } }],
        usage: { prompt_tokens: 2_000_000, completion_tokens: 10 },
      },
      { text: ["Done."] },
    ],
  },
  "loop-forever": {
    name: "loop-forever",
    steps: [
      { tool_calls: [read] },
      { tool_calls: [read] },
      { tool_calls: [read] },
      // The third identical call was answered with the warning, not run again.
      { tool_calls: [read], expect: { tool_result_includes: "three times in a row" } },
      { tool_calls: [read] },
      { text: ["Never reached."] },
    ],
  },
};

const codex = findEngineBinary("codex", { environment: { PATH: "" } });

describe.each(runTargets())("run budgets on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;

  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0, scenarios });
    server = await startPatchworkServer({
      env: {
        ...modelServerEnvironment(modelServer.url, ["loop-forever", "happy-path"]),
        ...target.env,
        PATCHWORK_DATA_DIR: temporaryDataDir("budgets"),
        OPENAI_API_KEY: "scripted-key",
        OPENAI_BASE_URL: modelServer.url,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  it("stops a native run whose known cost passes the cap, committing nothing", async () => {
    const app = await createApp(server, "Budget native");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "openai:gpt-5.5",
    });
    const ended = await waitForRunEnd(server, app.id, run.id, 30_000);
    expect(ended).toMatchObject({ status: "failed", error_code: "CODING_AGENT_BUDGET_EXCEEDED" });
    expect(ended.error_message).toMatch(/cost cap.*\$2\.00/);
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
  });

  it.skipIf(!codex.found)(
    `stops a Codex run at the cap from the usage it reports${codex.found ? "" : " (skipped: Codex is not installed)"}`,
    async () => {
      const app = await createApp(server, "Budget codex");
      const run = await startRun(server, app.id, {
        input: "Change the heading",
        model_id: "openai:gpt-5.5",
        engine: "codex",
        approval_policy: "auto",
      });
      const ended = await waitForRunEnd(server, app.id, run.id, 30_000);
      expect(ended).toMatchObject({ status: "failed", error_code: "CODING_AGENT_BUDGET_EXCEEDED" });
      expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(starterHeading);
    },
  );

  it("tells a model that repeats one call, then stops it with CODING_AGENT_LOOP_DETECTED", async () => {
    const app = await createApp(server, "Loop");
    const run = await startRun(server, app.id, {
      input: "Look at the app",
      model_id: "compatible:loop-forever",
    });
    const ended = await waitForRunEnd(server, app.id, run.id, 30_000);
    expect(ended).toMatchObject({ status: "failed", error_code: "CODING_AGENT_LOOP_DETECTED" });
    const { events } = await collectRun(server, app.id, run.id);
    const failed = eventsOfType(events, "tool.failed");
    expect(failed[0]?.payload).toMatchObject({ code: "CODING_AGENT_LOOP_DETECTED" });
    // The scripted model's expectation held: the warning reached it before the fourth call.
    const expectationFailures = modelServer.requests.filter(
      (request) => request.expectationFailure,
    );
    expect(expectationFailures).toEqual([]);
  });
});

describe("an external engine that repeats one call", () => {
  let modelServer: ModelServer;
  let server: PatchworkServer;
  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0 });
    server = await startPatchworkServer({
      env: {
        ...modelServerEnvironment(modelServer.url, ["repeat"]),
        PATCHWORK_DATA_DIR: temporaryDataDir("budgets-loop"),
        // The scripted app-server: its `repeat` thread runs `ls src` four times in a row.
        PATCHWORK_CODEX_BIN: path.resolve(import.meta.dirname, "../fakes/codex-app-server.mjs"),
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  it("is warned about in a notice on the third call and stopped with CODING_AGENT_LOOP_DETECTED on the fourth", async () => {
    const app = await createApp(server, "Loop codex");
    const run = await startRun(server, app.id, {
      input: "List the files",
      model_id: "compatible:repeat",
      engine: "codex",
    });
    const ended = await waitForRunEnd(server, app.id, run.id, 30_000);
    expect(ended).toMatchObject({ status: "failed", error_code: "CODING_AGENT_LOOP_DETECTED" });
    const { events } = await collectRun(server, app.id, run.id);
    expect(eventsOfType(events, "notice").map((event) => event.payload.kind)).toContain(
      "loop_warning",
    );
  });
});
