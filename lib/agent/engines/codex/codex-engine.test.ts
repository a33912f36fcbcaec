import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { materializeFolder } from "@/lib/agent/workspace/workspace-folder";
import { resetEnvironmentForTests } from "@/lib/env";
import { RateLimitReached } from "@/lib/models/rate-limit";
import { starterHeading, starterTemplateFiles } from "@/lib/workspace/starter-template";
import { type ModelServer, patchedHeading, startModelServer } from "@/test/model-server";
import type { ApprovalDecision, EngineRunInput } from "../engine";
import { findEngineBinary } from "../engine-binaries";
import { codexEngine } from ".";
import { codexHomeOf } from "./codex-home";
import { recordingSink } from "./recording-sink";

const fakeBinary = path.resolve(import.meta.dirname, "../../../../test/fakes/codex-app-server.mjs");
const dataDirectory = mkdtempSync(path.join(os.tmpdir(), "patchwork-codex-engine-"));
const savedEnvironment = { ...process.env };
let runCount = 0;

beforeAll(() => {
  process.env.PATCHWORK_DATA_DIR = dataDirectory;
  resetEnvironmentForTests();
});
afterAll(() => {
  process.env = savedEnvironment;
  resetEnvironmentForTests();
  if (!process.env.KEEP_DATA) rmSync(dataDirectory, { recursive: true, force: true });
});

async function runInput(options: {
  model: string;
  baseUrl?: string;
  input?: string;
  resumeRef?: string | null;
  signal?: AbortSignal;
  appId?: string;
}): Promise<{ input: EngineRunInput; folder: string }> {
  runCount += 1;
  const runId = `run-${runCount}`;
  const files = new Map(
    Object.entries(starterTemplateFiles).map(([file, text]) => [
      file,
      new TextEncoder().encode(text),
    ]),
  );
  const folder = await materializeFolder(path.join(dataDirectory, "runs"), runId, files);
  const input = options.input ?? "Change the heading";
  return {
    folder,
    input: {
      run: { id: runId, appId: options.appId ?? "app-1" } as EngineRunInput["run"],
      model: {
        id: `compatible:${options.model}`,
        provider: "compatible",
        name: options.model,
        baseUrl: options.baseUrl ?? "http://127.0.0.1:9/v1",
        keyVariable: null,
        apiKey: null,
      },
      input,
      conversation: { appName: "Test app", messages: [{ role: "user", content: input }] },
      resumeRef: options.resumeRef ?? null,
      workspace: { form: "folder", directory: folder },
      approvalPolicy: "ask",
      signal: options.signal ?? new AbortController().signal,
      limits: {
        maxIterations: 20,
        inactivityTimeoutMs: 60_000,
        runTimeoutMs: 60_000,
        maxCostUsd: 2,
      },
    },
  };
}

const appText = (folder: string) => readFileSync(path.join(folder, "src/App.tsx"), "utf8");
const isAlive = (pid: number) => existsSync(`/proc/${pid}`);
function fakeLog(appId = "app-1"): Record<string, unknown>[] {
  const file = path.join(codexHomeOf(dataDirectory, appId), "fake-log.jsonl");
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("Codex engine against a scripted app-server", () => {
  beforeAll(() => {
    process.env.PATCHWORK_CODEX_BIN = fakeBinary;
  });
  afterAll(() => {
    delete process.env.PATCHWORK_CODEX_BIN;
  });

  it("maps a turn onto the sink, answers approvals, declines what Patchwork does not offer", async () => {
    const { input, folder } = await runInput({ model: "happy", appId: "app-happy" });
    const recorded = recordingSink((request) =>
      request.kind === "command" ? "decline" : "accept",
    );
    const result = await codexEngine.run(input, recorded.sink);
    expect(appText(folder)).toBe("changed by the fake codex\n");
    expect(recorded.engineRunRefs).toEqual(["thread-fake-1"]);
    expect(recorded.events.map((event) => event.type)).toEqual([
      "assistant.delta",
      "tool.started",
      "approval",
      "tool.completed",
      "approval",
      "notice",
      "usage",
      "assistant.delta",
    ]);
    expect(recorded.approvals[0]).toMatchObject({
      kind: "file_change",
      description: "Edit src/App.tsx",
      context: { paths: ["src/App.tsx"], diff: expect.stringContaining("+++ b/src/App.tsx") },
    });
    expect(recorded.approvals[1]).toMatchObject({
      kind: "command",
      context: { command: "npm test", cwd: "." },
    });
    // Each call is reported with its arguments, for the run's loop check.
    expect(recorded.toolCalls.map((call) => call.tool)).toEqual(["file_change"]);
    expect(recorded.events[5].payload).toMatchObject({ kind: "engine_request_declined" });
    expect(result).toMatchObject({
      text: "Echo: Change the heading\n\nDone.",
      usage: { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 20 },
    });
    const log = fakeLog("app-happy");
    expect(log).toContainEqual({ fileChangeDecision: "accept" });
    expect(log).toContainEqual({ commandDecision: "decline" });
    expect(log).toContainEqual({ permissionAnswer: { permissions: {}, scope: "turn" } });
    // Asked before any file change: the policy under which Codex requests approval for edits.
    const threadStart = log.find(
      (entry) => (entry.received as { method?: string } | undefined)?.method === "thread/start",
    );
    expect(threadStart?.received).toMatchObject({
      params: { approvalPolicy: "untrusted", cwd: folder },
    });
    expect(recorded.pids.at(-1)).toBeNull();
    // The app's stored threads go with the app.
    expect(existsSync(codexHomeOf(dataDirectory, "app-happy"))).toBe(true);
    await codexEngine.removeAppState?.("app-happy");
    expect(existsSync(codexHomeOf(dataDirectory, "app-happy"))).toBe(false);
  });

  it("leaves the file alone when the change is declined", async () => {
    const { input, folder } = await runInput({ model: "happy", appId: "app-decline" });
    const recorded = recordingSink(() => "decline" as ApprovalDecision);
    await codexEngine.run(input, recorded.sink);
    expect(appText(folder)).toContain(starterHeading);
    expect(recorded.events.find((event) => event.type === "tool.failed")?.payload).toMatchObject({
      code: "TOOL_APPROVAL_DECLINED",
      tool: "file_change",
    });
  });

  it("passes 'accept for this session' on as Codex's acceptForSession", async () => {
    const { input, folder } = await runInput({ model: "happy", appId: "app-session" });
    const recorded = recordingSink(() => "accept_for_session" as ApprovalDecision);
    await codexEngine.run(input, recorded.sink);
    expect(appText(folder)).toBe("changed by the fake codex\n");
    const log = fakeLog("app-session");
    expect(log).toContainEqual({ fileChangeDecision: "acceptForSession" });
    expect(log).toContainEqual({ commandDecision: "acceptForSession" });
  });

  it("answers a server request it does not know with -32601", async () => {
    const { input } = await runInput({ model: "unknown-request", appId: "app-unknown" });
    await codexEngine.run(input, recordingSink().sink);
    expect(fakeLog("app-unknown")).toContainEqual({
      unknownRequestAnswer: {
        error: {
          code: -32601,
          message: "Patchwork does not handle patchwork/fake/unknownRequest.",
        },
      },
    });
  });

  it("interrupts on Stop and ends with the stop's reason once Codex confirms", async () => {
    const controller = new AbortController();
    const { input } = await runInput({ model: "interrupt-confirmed", signal: controller.signal });
    const recorded = recordingSink();
    const running = codexEngine.run(input, recorded.sink);
    await waitFor(() => recorded.events.length > 0);
    const reason = new RunFailure("CODING_AGENT_RUN_INTERRUPTED", "stopped by the test");
    const stoppedAt = Date.now();
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
  });

  it("kills the process group when an interrupt is not confirmed within 5 s", async () => {
    const controller = new AbortController();
    const { input } = await runInput({ model: "interrupt-ignored", signal: controller.signal });
    const recorded = recordingSink();
    const running = codexEngine.run(input, recorded.sink);
    await waitFor(() => recorded.events.length > 0);
    const pid = recorded.pids[0] as number;
    expect(isAlive(pid)).toBe(true);
    const stoppedAt = Date.now();
    controller.abort(new RunFailure("CODING_AGENT_RUN_INTERRUPTED", "stopped"));
    await expect(running).rejects.toThrow("stopped");
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(4_900);
    await waitFor(() => !isAlive(pid));
  }, 15_000);

  it("fails with CODING_AGENT_ENGINE_CRASHED when Codex dies before the thread starts", async () => {
    const { input } = await runInput({ model: "crash-before-thread" });
    const error = await codexEngine.run(input, recordingSink().sink).catch((caught) => caught);
    expect(error).toBeInstanceOf(RunFailure);
    expect(error).toMatchObject({ code: "CODING_AGENT_ENGINE_CRASHED" });
    expect(error.message).toMatch(/exited with code 3.*thread store unavailable/);
  });

  it("fails a turn at its usage limit with CODING_AGENT_RATE_LIMITED, carrying when it resets", async () => {
    const { input } = await runInput({ model: "usage-limit" });
    const error = await codexEngine.run(input, recordingSink().sink).catch((caught) => caught);
    expect(error).toMatchObject({ code: "CODING_AGENT_RATE_LIMITED" });
    // The executor finds the reset in the cause and pauses the run until then.
    const reached = RateLimitReached.find(error);
    expect(reached).not.toBeNull();
    const waitS = ((reached?.resetAt.getTime() ?? 0) - Date.now()) / 1000;
    expect(waitS).toBeGreaterThan(100);
    expect(waitS).toBeLessThanOrEqual(121);
  });

  it("ends with the watchdog's reason when Codex hangs", async () => {
    const controller = new AbortController();
    const { input } = await runInput({ model: "hang", signal: controller.signal });
    const recorded = recordingSink();
    const running = codexEngine.run(input, recorded.sink);
    await waitFor(() => recorded.pids.length > 0);
    const reason = new RunFailure("CODING_AGENT_MODEL_TIMEOUT", "Codex sent nothing for 1 s");
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    await waitFor(() => !isAlive(recorded.pids[0] as number));
  });

  it("resumes the app's thread, and starts fresh with a notice when the resume is refused", async () => {
    const resumed = await runInput({ model: "happy", resumeRef: "thread-earlier", appId: "app-r" });
    const first = recordingSink();
    await codexEngine.run(resumed.input, first.sink);
    expect(first.engineRunRefs).toEqual(["thread-earlier"]);
    expect(
      first.events.some(
        (event) => event.type === "notice" && event.payload.kind === "engine_session_reset",
      ),
    ).toBe(false);

    const refused = await runInput({
      model: "resume-refused",
      resumeRef: "thread-gone",
      appId: "app-r2",
      input: "Now make it blue",
    });
    refused.input.conversation.messages = [
      { role: "user", content: "Add a title" },
      { role: "assistant", content: "Added it." },
      { role: "user", content: "Now make it blue" },
    ];
    const second = recordingSink();
    await codexEngine.run(refused.input, second.sink);
    expect(second.events[0]).toMatchObject({
      type: "notice",
      payload: { kind: "engine_session_reset", data: { engine: "codex" } },
    });
    expect(second.engineRunRefs).toEqual(["thread-fake-1"]);
    const turnStart = fakeLog("app-r2").find(
      (entry) => (entry.received as { method?: string } | undefined)?.method === "turn/start",
    )?.received as { params: { input: { text: string }[] } };
    expect(turnStart.params.input[0].text).toMatch(/Person: Add a title[\s\S]*Now make it blue$/);
  });

  it("reports a Codex outside the supported range as unsupported, before any work", async () => {
    const old = path.join(dataDirectory, "old-codex");
    const { writeFileSync, chmodSync } = await import("node:fs");
    writeFileSync(old, "#!/bin/sh\necho codex-cli 0.150.2\n");
    chmodSync(old, 0o755);
    process.env.PATCHWORK_CODEX_BIN = old;
    try {
      expect(await codexEngine.status()).toMatchObject({
        available: false,
        code: "CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME",
        version: "0.150.2",
      });
    } finally {
      process.env.PATCHWORK_CODEX_BIN = fakeBinary;
    }
  });
});

const realCodex = findEngineBinary("codex", { environment: { PATH: "" } });
describe.skipIf(!realCodex.found)(
  `Codex engine with the real codex app-server${realCodex.found ? "" : " (skipped: run npm run engines:install)"}`,
  () => {
    let server: ModelServer;
    beforeAll(async () => {
      server = await startModelServer();
    });
    afterAll(async () => {
      await server.close();
    });
    afterEach(() => {
      delete process.env.PATCHWORK_CODEX_BIN;
    });

    it("edits the heading through apply_patch after an approval, and resumes its thread", async () => {
      const { input, folder } = await runInput({
        model: "codex-edit-heading",
        baseUrl: server.url,
        appId: "app-real",
      });
      const recorded = recordingSink();
      const result = await codexEngine.run(input, recorded.sink);
      expect(appText(folder)).toContain(patchedHeading);
      expect(recorded.approvals).toHaveLength(1);
      expect(recorded.approvals[0].context.diff).toContain(`+            ${patchedHeading}`);
      expect(recorded.events.map((event) => event.type)).toEqual(
        expect.arrayContaining(["tool.started", "approval", "tool.completed", "usage"]),
      );
      expect(result.text).toContain("Changed the heading.");
      expect(result.usage.input_tokens).toBeGreaterThan(0);
      const threadId = recorded.engineRunRefs[0];

      const next = await runInput({
        model: "codex-edit-heading",
        baseUrl: server.url,
        appId: "app-real",
        resumeRef: threadId,
      });
      const again = recordingSink();
      await codexEngine.run(next.input, again.sink);
      expect(again.engineRunRefs).toEqual([threadId]);
      expect(again.events.some((event) => event.type === "notice")).toBe(false);
    });

    it("stops mid-turn: the turn is interrupted and no codex process is left", async () => {
      const controller = new AbortController();
      const { input } = await runInput({
        model: "codex-edit-then-wait",
        baseUrl: server.url,
        signal: controller.signal,
        appId: "app-real-stop",
      });
      const recorded = recordingSink();
      const running = codexEngine.run(input, recorded.sink);
      await waitFor(() => recorded.events.some((event) => event.type === "tool.completed"));
      const pid = recorded.pids[0] as number;
      const reason = new RunFailure("CODING_AGENT_RUN_INTERRUPTED", "stopped");
      controller.abort(reason);
      await expect(running).rejects.toBe(reason);
      await waitFor(() => !isAlive(pid));
    });
  },
);

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
