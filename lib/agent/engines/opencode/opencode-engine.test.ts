import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { resetEnvironmentForTests } from "@/lib/env";
import { RateLimitReached } from "@/lib/models/rate-limit";
import { starterHeading } from "@/lib/workspace/starter-template";
import { type ModelServer, patchedHeading, startModelServer } from "@/test/model-server";
import { recordingSink } from "../codex/recording-sink";
import type { EngineRunInput } from "../engine";
import { findEngineBinary } from "../engine-binaries";
import { engineTestRun } from "../engine-test-run";
import { opencodeEngine } from ".";
import { stopOpencodeServers } from "./opencode-server";

// The real `opencode serve` from `npm run engines:install`, against the scripted model server's
// chat completions. Without the binary the suite says so.
const opencode = findEngineBinary("opencode", { environment: { PATH: "" } });
const dataDirectory = mkdtempSync(path.join(os.tmpdir(), "patchwork-opencode-engine-"));
const savedDataDirectory = process.env.PATCHWORK_DATA_DIR;
let runCount = 0;

describe.skipIf(!opencode.found)(
  `OpenCode engine with the real opencode serve${opencode.found ? "" : " (skipped: run npm run engines:install)"}`,
  () => {
    let server: ModelServer;
    beforeAll(async () => {
      process.env.PATCHWORK_DATA_DIR = dataDirectory;
      resetEnvironmentForTests();
      server = await startModelServer();
    });
    afterAll(async () => {
      await stopOpencodeServers();
      await server.close();
      if (savedDataDirectory === undefined) delete process.env.PATCHWORK_DATA_DIR;
      else process.env.PATCHWORK_DATA_DIR = savedDataDirectory;
      resetEnvironmentForTests();
      rmSync(dataDirectory, { recursive: true, force: true });
    });

    async function runInput(options: {
      scenario: string;
      resumeRef?: string | null;
      signal?: AbortSignal;
      folderId?: string;
    }): Promise<{ input: EngineRunInput; folder: string }> {
      runCount += 1;
      return engineTestRun({
        dataDirectory,
        folderId: options.folderId ?? `oc-${runCount}`,
        runId: `oc-${runCount}`,
        appId: "app-oc",
        model: {
          id: `compatible:${options.scenario}`,
          provider: "compatible",
          name: options.scenario,
          baseUrl: server.url,
          keyVariable: null,
          apiKey: null,
        },
        resumeRef: options.resumeRef,
        signal: options.signal,
      });
    }
    const appText = (folder: string) => readFileSync(path.join(folder, "src/App.tsx"), "utf8");

    it("edits the heading once the change is accepted, with rows, a card and usage", async () => {
      const { input, folder } = await runInput({
        scenario: "opencode-edit-heading",
        folderId: "app-resume",
      });
      const recorded = recordingSink();
      const result = await opencodeEngine.run(input, recorded.sink);
      expect(appText(folder)).toContain(patchedHeading);
      expect(recorded.approvals).toEqual([
        expect.objectContaining({
          kind: "file_change",
          description: "Edit src/App.tsx",
          context: expect.objectContaining({ paths: ["src/App.tsx"] }),
        }),
      ]);
      // The card's diff names app paths, never the server's run folder.
      expect(recorded.approvals[0].context.diff).toMatch(
        /^--- a\/src\/App\.tsx\n\+\+\+ b\/src\/App\.tsx/,
      );
      expect(recorded.approvals[0].context.diff).not.toContain(dataDirectory);
      const completed = recorded.events.filter((event) => event.type === "tool.completed");
      expect(completed.map((event) => event.payload.tool)).toEqual(["read", "edit"]);
      expect(recorded.toolCalls.map((call) => call.tool)).toEqual(["read", "edit"]);
      expect(completed[1].payload).toMatchObject({ files: ["src/App.tsx"] });
      expect(result.text).toBe(
        "Reading the app.\n\nI'll change the heading.\n\nChanged the heading.",
      );
      expect(result.usage.input_tokens).toBeGreaterThan(0);
      expect(recorded.engineRunRefs[0]).toMatch(/^ses_/);

      // A follow-up continues the same session; a session that is gone starts fresh, with a notice.
      const next = await runInput({
        scenario: "opencode-edit-heading",
        resumeRef: recorded.engineRunRefs[0],
        folderId: "app-resume",
      });
      const again = recordingSink();
      await opencodeEngine.run(next.input, again.sink);
      expect(again.engineRunRefs).toEqual(recorded.engineRunRefs);
      expect(again.events.some((event) => event.type === "notice")).toBe(false);

      const gone = await runInput({ scenario: "opencode-edit-heading", resumeRef: "ses_gone" });
      const fresh = recordingSink();
      await opencodeEngine.run(gone.input, fresh.sink);
      expect(fresh.events[0]).toMatchObject({
        type: "notice",
        payload: { kind: "engine_session_reset" },
      });
      expect(fresh.engineRunRefs[0]).not.toBe("ses_gone");
    });

    it("leaves the file alone when the change is declined", async () => {
      const { input, folder } = await runInput({ scenario: "opencode-edit-heading" });
      const recorded = recordingSink(() => "decline");
      await opencodeEngine.run(input, recorded.sink);
      expect(appText(folder)).toContain(starterHeading);
      expect(recorded.events.find((event) => event.type === "tool.failed")?.payload).toMatchObject({
        tool: "edit",
        code: "TOOL_APPROVAL_DECLINED",
      });
    });

    it("stops mid-turn: the session is aborted and the run ends with the stop's reason", async () => {
      const controller = new AbortController();
      const { input } = await runInput({
        scenario: "opencode-edit-then-wait",
        signal: controller.signal,
      });
      const recorded = recordingSink();
      const running = opencodeEngine.run(input, recorded.sink);
      const deadline = Date.now() + 30_000;
      while (
        !recorded.events.some(
          (event) => event.type === "tool.completed" && event.payload.tool === "edit",
        )
      ) {
        if (Date.now() > deadline) throw new Error("the edit did not complete");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const reason = new RunFailure("CODING_AGENT_RUN_INTERRUPTED", "stopped");
      const stoppedAt = Date.now();
      controller.abort(reason);
      await expect(running).rejects.toBe(reason);
      expect(Date.now() - stoppedAt).toBeLessThan(3_000);
      expect(existsSync(dataDirectory)).toBe(true);
    });
  },
);

describe("OpenCode engine against a scripted opencode serve", () => {
  const fake = path.resolve(import.meta.dirname, "../../../../test/fakes/opencode-serve.mjs");
  const fakeData = mkdtempSync(path.join(os.tmpdir(), "patchwork-opencode-fake-"));
  const saved = { bin: process.env.PATCHWORK_OPENCODE_BIN, data: process.env.PATCHWORK_DATA_DIR };
  beforeAll(() => {
    process.env.PATCHWORK_OPENCODE_BIN = fake;
    process.env.PATCHWORK_DATA_DIR = fakeData;
    resetEnvironmentForTests();
  });
  afterAll(async () => {
    await stopOpencodeServers();
    if (saved.bin === undefined) delete process.env.PATCHWORK_OPENCODE_BIN;
    else process.env.PATCHWORK_OPENCODE_BIN = saved.bin;
    if (saved.data === undefined) delete process.env.PATCHWORK_DATA_DIR;
    else process.env.PATCHWORK_DATA_DIR = saved.data;
    resetEnvironmentForTests();
    rmSync(fakeData, { recursive: true, force: true });
  });

  let fakeRuns = 0;
  async function fakeInput(scenario: string, signal?: AbortSignal) {
    fakeRuns += 1;
    return engineTestRun({
      dataDirectory: fakeData,
      folderId: `fake-${fakeRuns}`,
      runId: `fake-${fakeRuns}`,
      appId: "app-fake",
      model: {
        id: `compatible:${scenario}`,
        provider: "compatible",
        name: scenario,
        baseUrl: "http://127.0.0.1:9/v1",
        keyVariable: null,
        apiKey: null,
      },
      input: "Change it",
      files: { "src/App.tsx": "a\n" },
      signal: signal ?? AbortSignal.timeout(30_000),
      maxIterations: 5,
    });
  }
  const fakeLog = () =>
    readFileSync(path.join(fakeData, "engines", "opencode", "home", "fake-log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("answers a permission both ways: once for accept, reject for decline", async () => {
    const accepted = await fakeInput("happy");
    const first = recordingSink();
    await opencodeEngine.run(accepted.input, first.sink);
    expect(readFileSync(path.join(accepted.folder, "src/App.tsx"), "utf8")).toBe(
      "changed by the fake opencode\n",
    );
    expect(first.approvals[0]).toMatchObject({
      kind: "file_change",
      description: "Edit src/App.tsx",
      context: { diff: "--- a/src/App.tsx\n+++ b/src/App.tsx\n@@ -1 +1 @@\n-a\n+b\n" },
    });
    const declined = await fakeInput("happy");
    const second = recordingSink(() => "decline");
    await opencodeEngine.run(declined.input, second.sink);
    expect(readFileSync(path.join(declined.folder, "src/App.tsx"), "utf8")).toBe("a\n");
    expect(second.events.find((event) => event.type === "tool.failed")?.payload).toMatchObject({
      code: "TOOL_APPROVAL_DECLINED",
    });
    const sessionAnswer = await fakeInput("happy");
    await opencodeEngine.run(sessionAnswer.input, recordingSink(() => "accept_for_session").sink);
    expect(
      fakeLog().flatMap((entry) => (entry.permissionReply ? [entry.permissionReply] : [])),
    ).toEqual(["once", "reject", "always"]);
  });

  it("fails at a provider rate limit OpenCode gave up on, carrying when it resets", async () => {
    const { input } = await fakeInput("rate-limited");
    const error = await opencodeEngine.run(input, recordingSink().sink).catch((caught) => caught);
    expect(error).toMatchObject({ code: "CODING_AGENT_RATE_LIMITED" });
    // The executor finds the reset in the cause and pauses the run until then.
    const waitS = ((RateLimitReached.find(error)?.resetAt.getTime() ?? 0) - Date.now()) / 1000;
    expect(waitS).toBeGreaterThan(80);
    expect(waitS).toBeLessThanOrEqual(90);
  });

  it("ends a Stop without confirmation after 5 s, failing closed", async () => {
    const controller = new AbortController();
    const { input } = await fakeInput("abort-ignored", controller.signal);
    const recorded = recordingSink();
    const running = opencodeEngine.run(input, recorded.sink);
    while (!recorded.events.some((event) => event.type === "assistant.delta"))
      await new Promise((resolve) => setTimeout(resolve, 20));
    const reason = new RunFailure("CODING_AGENT_RUN_INTERRUPTED", "stopped");
    const stoppedAt = Date.now();
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(4_900);
    expect(fakeLog().some((entry) => entry.abort)).toBe(true);
  }, 15_000);

  it("fails with CODING_AGENT_ENGINE_CRASHED when its server dies mid-turn, and starts a new one next", async () => {
    const dying = await fakeInput("die");
    const error = await opencodeEngine.run(dying.input, recordingSink().sink).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "CODING_AGENT_ENGINE_CRASHED" });
    const next = await fakeInput("happy");
    await opencodeEngine.run(next.input, recordingSink().sink);
    expect(readFileSync(path.join(next.folder, "src/App.tsx"), "utf8")).toBe(
      "changed by the fake opencode\n",
    );
  });
});
