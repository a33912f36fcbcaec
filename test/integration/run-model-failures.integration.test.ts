import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import {
  type ModelServer,
  modelServerEnvironment,
  type Scenario,
  scenarioNames,
  startModelServer,
} from "@/test/model-server";
import {
  assistantText,
  createApp,
  eventsOfType,
  expectGaplessRun,
  getRun,
  listRevisions,
  readDraftFile,
  runsPath,
  runTargets,
  startRun,
} from "@/test/support/coding-agent-runs";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";
import { type RecordingProxy, startRecordingProxy } from "@/test/support/recording-proxy";
import { suiteDatabaseUrl } from "@/test/support/scratch-postgres";
import { collectRun } from "@/test/support/sse-client";

const secret = "sk-test-secret-value-123";

/** A model that echoes the key everywhere it can: text, reasoning, a tool path, an error body. */
const echoSecretScenario: Scenario = {
  name: "echo-secret",
  steps: [
    {
      reasoning: [`The key is ${secret}.`],
      text: [`Your key is ${secret}, `, "let me look for it."],
      tool_calls: [{ name: "read_file_range", arguments: { path: `notes/${secret}.txt` } }],
    },
    {
      status: 401,
      error_message: `Incorrect API key provided: ${secret}. You can find your API key in your account.`,
    },
  ],
};

describe.each(runTargets())("model trouble on $name", (target) => {
  let modelServer: ModelServer;
  let proxy: RecordingProxy;
  /** Default limits: 500s are retried by the SDK for longer than a short tool-time limit. */
  let server: PatchworkServer;
  /** A 2 s tool-time limit, fast keep-alives, and the compatible key set, for hangs and secrets. */
  let strictServer: PatchworkServer;

  beforeAll(async () => {
    modelServer = await startModelServer({
      port: 0,
      scenarios: { "echo-secret": echoSecretScenario },
    });
    proxy = await startRecordingProxy({ target: modelServer.url });
    const modelEnvironment = {
      ...modelServerEnvironment(proxy.url, [...scenarioNames, "echo-secret"]),
      OPENAI_COMPATIBLE_API_KEY: secret,
      ...target.env,
    };
    [server, strictServer] = await Promise.all([
      startPatchworkServer({ env: modelEnvironment }),
      startPatchworkServer({
        env: {
          ...modelEnvironment,
          APPS_CODING_AGENT_TOOL_TIMEOUT_S: "2",
          PATCHWORK_SSE_KEEPALIVE_MS: "300",
          // A database of its own: the other server's queue worker would execute its runs
          // with the other limits.
          ...(target.env.DATABASE_URL
            ? { DATABASE_URL: suiteDatabaseUrl(process.env.TEST_DATABASE_URL!, "strict") }
            : {}),
        },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), strictServer?.stop()]);
    await proxy?.close();
    await modelServer?.close();
  });

  it("fails with CODING_AGENT_MODEL_ERROR when the model answers 500, and commits nothing", async () => {
    const app = await createApp(server, "Server error");
    const run = await startRun(server, app.id, {
      input: "Hello",
      model_id: "compatible:server-error",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expectGaplessRun(events, run);
    expect(events.map((event) => event.type)).toEqual(["run.accepted", "run.failed"]);
    expect(events[1].payload).toEqual({
      code: "CODING_AGENT_MODEL_ERROR",
      message: expect.stringContaining("500"),
    });
    expect(await getRun(server, app.id, run.id)).toMatchObject({
      status: "failed",
      error_code: "CODING_AGENT_MODEL_ERROR",
      result_revision_id: null,
    });
    expect((await listRevisions(server, app.id)).draft_revision_id).toBe(app.draft_revision_id);
    // The provider's body never reaches the person: it may echo request details.
    expect(JSON.stringify(events)).not.toContain("failed on purpose");
  });

  it("reports a model that keeps failing as CODING_AGENT_MODEL_ERROR even when the SDK's retry waits outlast the tool-time limit", async () => {
    const app = await createApp(strictServer, "Server error, short limit");
    const run = await startRun(strictServer, app.id, {
      input: "Keep failing, please",
      model_id: "compatible:server-error",
    });
    const { events } = await collectRun(strictServer, app.id, run.id, { timeoutMs: 30_000 });
    expectGaplessRun(events, run);
    // The SDK waits 2 s, then 4 s, between its three attempts: longer than the 2 s limit, which
    // counts only the model's silence, not our waiting.
    const attempts = proxy.exchanges.filter(
      (exchange) =>
        exchange.requestBody.includes('"server-error"') &&
        exchange.requestBody.includes("Keep failing, please"),
    );
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      payload: { code: "CODING_AGENT_MODEL_ERROR" },
    });
  });

  it("fails with CODING_AGENT_MODEL_TIMEOUT within the tool-time limit when the model hangs, with keep-alives meanwhile", async () => {
    const app = await createApp(strictServer, "Hang");
    const started = performance.now();
    const run = await startRun(strictServer, app.id, {
      input: "Hello",
      model_id: "compatible:hang",
    });
    const stream = await collectRun(strictServer, app.id, run.id, { timeoutMs: 20_000 });
    const elapsed = performance.now() - started;
    expectGaplessRun(stream.events, run);
    expect(stream.events.at(-1)).toMatchObject({
      type: "run.failed",
      payload: { code: "CODING_AGENT_MODEL_TIMEOUT", message: expect.any(String) },
    });
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(6_000);
    expect(
      stream.comments.filter((comment) => comment === "keep-alive").length,
    ).toBeGreaterThanOrEqual(3);
    expect(await getRun(strictServer, app.id, run.id)).toMatchObject({
      status: "failed",
      error_code: "CODING_AGENT_MODEL_TIMEOUT",
    });
    expect(await readDraftFile(strictServer, app.id, "src/App.tsx")).toBe(
      starterTemplateFiles["src/App.tsx"],
    );
  });

  it("waits out a 429 with retry-after and completes", async () => {
    const app = await createApp(server, "Rate limited");
    const run = await startRun(server, app.id, {
      input: "Hello",
      model_id: "compatible:rate-limited",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(assistantText(events)).toBe(
      "Thanks for waiting. The rate limit has passed, so here is my answer.",
    );
    const attempts = modelServer.requests.filter((request) => request.model === "rate-limited");
    expect(attempts.map((request) => request.status)).toEqual([429, 200]);
    expect(attempts[1].receivedAt - attempts[0].receivedAt).toBeGreaterThanOrEqual(900);
  });

  it("tells the person about a rate limit with a notice carrying reset_at (PRODUCT §3)", async () => {
    const app = await createApp(server, "Rate limit notice");
    const run = await startRun(server, app.id, {
      input: "Hello again",
      model_id: "compatible:rate-limited",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    // The run paused (`waiting`) until the reset, then went on by itself.
    const notices = eventsOfType(events, "notice");
    expect(notices.map((notice) => notice.payload.kind)).toEqual(["rate_limited", "resumed"]);
    expect(notices[0].payload).toMatchObject({
      message: expect.stringContaining("goes on by itself"),
      data: { reset_at: expect.any(String), wait_s: 1 },
    });
    const resetAt = Date.parse(String((notices[0].payload.data as { reset_at: string }).reset_at));
    expect(Date.parse(notices[1].ts)).toBeGreaterThanOrEqual(resetAt - 50);
  });

  it("never lets the provider key reach an event, an API answer or the server log", async () => {
    const app = await createApp(strictServer, "Secrets");
    const run = await startRun(strictServer, app.id, {
      input: "What is my key?",
      model_id: "compatible:echo-secret",
    });
    const { events } = await collectRun(strictServer, app.id, run.id);
    expectGaplessRun(events, run);
    // The model really echoed it, so the redaction had something to do.
    expect(eventsOfType(events, "tool.started")[0]?.payload.title).toBe(
      "Read notes/[redacted].txt",
    );
    expect(assistantText(events)).toContain("[redacted]");
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      payload: { code: "CODING_AGENT_MODEL_ERROR" },
    });

    // And the key was really configured: the provider got it as a bearer token.
    const echoCalls = proxy.exchanges.filter((exchange) =>
      exchange.requestBody.includes('"echo-secret"'),
    );
    expect(echoCalls.length).toBeGreaterThanOrEqual(2);
    for (const exchange of echoCalls)
      expect(exchange.requestHeaders.authorization).toBe(`Bearer ${secret}`);

    const answers = await Promise.all(
      [
        `/api/apps/${app.id}`,
        runsPath(app.id),
        `${runsPath(app.id)}/${run.id}`,
        "/api/models",
        "/api/engines",
        `/api/apps/${app.id}/coding-agent/checkpoints`,
      ].map((path) => api(strictServer, path)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain("secret-value");
    }
    expect(JSON.stringify(events)).not.toContain("secret-value");
    // The provider's error echoed the key; whatever the server logs about it must not.
    expect(strictServer.output()).toContain("[patchwork]");
    expect(strictServer.output()).not.toContain("secret-value");
    expect(server.output()).not.toContain("secret-value");
  });
});
