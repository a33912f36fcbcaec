/**
 * Engines benchmark (issues 14 and 15): the same edit — the starter's heading changed — made by
 * each engine against the scripted model server, timed from the request (or spawn) to the first
 * text delta and to the run's end, with the engine process's memory.
 *
 *   - through Patchwork: POST a run, read its SSE stream (native `compatible:happy-path`; Codex,
 *     OpenCode and Claude Code with approval policy `auto`, so no person is in the loop);
 *   - each engine's floor, driven directly with the same config: `codex app-server` over stdio;
 *     the OpenCode SDK against a warm `opencode serve`; the Claude agent SDK's `query()` — what
 *     any client of the engine pays before Patchwork adds its folder, events, database and SSE.
 *
 * Needs a production build (`npm run build`) and `npm run engines:install`. Run: npm run bench:engines
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareCodexHome } from "@/lib/agent/engines/codex/codex-home";
import { codexCatalogEntryTemplate } from "@/lib/agent/engines/codex/codex-model-catalog";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { createOpencodeClient } from "@opencode-ai/sdk/v2/client";
import { claudeCodeEngine } from "@/lib/agent/engines/claude-code";
import { JsonRpcConnection } from "@/lib/agent/engines/codex/json-rpc-connection";
import {
  getOpencodeServer,
  opencodeProviderId,
  stopOpencodeServers,
} from "@/lib/agent/engines/opencode/opencode-server";
import { findEngineBinary } from "@/lib/agent/engines/engine-binaries";
import { materializeFolder } from "@/lib/agent/workspace/workspace-folder";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import {
  builtInScenarios,
  type ModelServer,
  modelServerEnvironment,
  startModelServer,
} from "@/test/model-server";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { openSse, runStreamUrl } from "@/test/support/sse-client";
import { formatBytes, formatMs, median, printTable } from "./table";

const iterations = 7;

interface Timing {
  firstDeltaMs: number;
  wholeMs: number;
  /** Resident memory of the engine's process at the end of the turn, when measured. */
  rssBytes?: number;
}

/** VmRSS of a process (Linux /proc), or NaN. */
function rssOf(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

async function timePatchworkRun(
  server: PatchworkServer,
  body: Record<string, unknown>,
): Promise<Timing> {
  const created = await api(server, "/api/apps", { method: "POST", body: { name: "Bench" } });
  const appId = created.body.app.id as string;
  const started = performance.now();
  const response = await api(server, `/api/apps/${appId}/coding-agent/runs`, {
    method: "POST",
    body,
  });
  if (response.status !== 201) throw new Error(`run refused: ${JSON.stringify(response.body)}`);
  const runId = response.body.run.id as string;
  const connection = await openSse(runStreamUrl(server, appId, runId));
  let firstDeltaMs = Number.NaN;
  for await (const frame of connection.frames) {
    if (frame.event === "assistant.delta" && Number.isNaN(firstDeltaMs))
      firstDeltaMs = performance.now() - started;
    if (frame.event === "run.failed") throw new Error(JSON.stringify(frame.data));
    if (frame.event === "run.completed" || frame.event === "run.cancelled") break;
  }
  connection.close();
  return { firstDeltaMs, wholeMs: performance.now() - started };
}

/** The floor: codex app-server driven directly, the approval answered at once. */
async function timeBareCodex(binary: string, modelServer: ModelServer): Promise<Timing> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-bare-codex-"));
  const home = path.join(scratch, "home");
  const files = new Map(
    Object.entries(starterTemplateFiles).map(([file, text]) => [
      file,
      new TextEncoder().encode(text),
    ]),
  );
  const folder = await materializeFolder(path.join(scratch, "runs"), "bare", files);
  await prepareCodexHome({
    dataDirectory: scratch,
    appId: "bench",
    model: {
      id: "compatible:codex-edit-heading",
      provider: "compatible",
      name: "codex-edit-heading",
      baseUrl: modelServer.url,
      keyVariable: null,
      apiKey: null,
    },
    workFolder: folder,
    catalogEntryTemplate: await codexCatalogEntryTemplate(binary),
  });
  const codexHome = path.join(scratch, "engines", "codex", "bench");
  const started = performance.now();
  const child = spawn(binary, ["app-server"], {
    cwd: folder,
    env: {
      PATH: process.env.PATH,
      HOME: codexHome,
      CODEX_HOME: codexHome,
      PATCHWORK_MODEL_API_KEY: "none",
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "ignore"],
  });
  let firstDeltaMs = Number.NaN;
  let turnDone!: () => void;
  const completed = new Promise<void>((resolve) => {
    turnDone = resolve;
  });
  const connection = new JsonRpcConnection(child.stdout, child.stdin, {
    onNotification(method) {
      if (method === "item/agentMessage/delta" && Number.isNaN(firstDeltaMs))
        firstDeltaMs = performance.now() - started;
      if (method === "turn/completed") turnDone();
    },
    onRequest: async () => ({ decision: "accept" }),
  });
  try {
    await connection.request("initialize", {
      clientInfo: { name: "bench", title: null, version: "0" },
      capabilities: { experimentalApi: false, requestAttestation: false },
    });
    connection.notify("initialized");
    const thread = await connection.request<{ thread: { id: string } }>("thread/start", {
      cwd: folder,
      model: "codex-edit-heading",
      modelProvider: "patchwork",
      approvalPolicy: "untrusted",
      sandbox: "workspace-write",
    });
    await connection.request("turn/start", {
      threadId: thread.thread.id,
      input: [{ type: "text", text: "Change the heading", text_elements: [] }],
    });
    await completed;
    return { firstDeltaMs, wholeMs: performance.now() - started, rssBytes: rssOf(child.pid) };
  } finally {
    child.kill("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The floor for OpenCode: its SDK driven directly against a warm `opencode serve`. */
async function timeBareOpencode(
  binary: string,
  modelServer: ModelServer,
  home: string,
): Promise<Timing> {
  const model = {
    id: "compatible:opencode-edit-heading",
    provider: "compatible" as const,
    name: "opencode-edit-heading",
    baseUrl: modelServer.url,
    keyVariable: null,
    apiKey: null,
  };
  const server = await getOpencodeServer({ binary, model, home });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-bare-opencode-"));
  const files = new Map(
    Object.entries(starterTemplateFiles).map(([file, text]) => [
      file,
      new TextEncoder().encode(text),
    ]),
  );
  const folder = await materializeFolder(scratch, "bare", files);
  const client = createOpencodeClient({
    baseUrl: server.baseUrl,
    directory: folder,
    headers: { authorization: server.authorization },
  });
  const events = new AbortController();
  try {
    const started = performance.now();
    const session = await client.session.create({ directory: folder });
    const sessionId = session.data?.id as string;
    const subscription = await client.event.subscribe(
      { directory: folder },
      { signal: events.signal },
    );
    let firstDeltaMs = Number.NaN;
    let busy = false;
    const idle = (async () => {
      for await (const event of subscription.stream) {
        const typed = event as { type: string; properties: Record<string, unknown> };
        if (typed.properties?.sessionID !== sessionId) continue;
        if (typed.type === "message.part.delta" && Number.isNaN(firstDeltaMs))
          firstDeltaMs = performance.now() - started;
        if (typed.type === "permission.asked")
          await client.permission.reply({
            requestID: typed.properties.id as string,
            directory: folder,
            reply: "once",
          });
        const status = (typed.properties.status as { type?: string } | undefined)?.type;
        if (typed.type === "session.status" && status === "busy") busy = true;
        if (typed.type === "session.status" && status === "idle" && busy) return;
      }
    })();
    await client.session.promptAsync({
      sessionID: sessionId,
      directory: folder,
      model: { providerID: opencodeProviderId, modelID: model.name },
      parts: [{ type: "text", text: "Change the heading" }],
    });
    await idle;
    return { firstDeltaMs, wholeMs: performance.now() - started, rssBytes: rssOf(server.pid) };
  } finally {
    events.abort();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The floor for Claude Code: the agent SDK's query() driven directly, edits accepted. */
async function timeBareClaude(binary: string, modelServer: ModelServer): Promise<Timing> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-bare-claude-"));
  const files = new Map(
    Object.entries(starterTemplateFiles).map(([file, text]) => [
      file,
      new TextEncoder().encode(text),
    ]),
  );
  const folder = await materializeFolder(scratch, "bare", files);
  let pid: number | undefined;
  let rssBytes = Number.NaN;
  try {
    const started = performance.now();
    let firstDeltaMs = Number.NaN;
    for await (const message of query({
      prompt: "Change the heading",
      options: {
        cwd: folder,
        model: "claude-edit-heading",
        pathToClaudeCodeExecutable: binary,
        permissionMode: "acceptEdits",
        includePartialMessages: true,
        settingSources: [],
        env: {
          PATH: process.env.PATH,
          HOME: scratch,
          CLAUDE_CONFIG_DIR: path.join(scratch, "config"),
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${modelServer.port}`,
          ANTHROPIC_API_KEY: "scripted-key",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_TELEMETRY: "1",
        },
        spawnClaudeCodeProcess: (options) => {
          const child = spawn(options.command, options.args, {
            cwd: options.cwd,
            env: options.env as NodeJS.ProcessEnv,
            stdio: ["pipe", "pipe", "ignore"],
          });
          pid = child.pid;
          return child as typeof child & {
            stdin: NonNullable<typeof child.stdin>;
            stdout: NonNullable<typeof child.stdout>;
          };
        },
      },
    })) {
      if (message.type === "stream_event" && Number.isNaN(firstDeltaMs)) {
        const event = message.event as { type: string; delta?: { type: string } };
        if (event.type === "content_block_delta" && event.delta?.type === "text_delta")
          firstDeltaMs = performance.now() - started;
      }
      if (message.type === "result") rssBytes = rssOf(pid);
    }
    return { firstDeltaMs, wholeMs: performance.now() - started, rssBytes };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function runEnginesBench(): Promise<void> {
  const codex = findEngineBinary("codex");
  const opencode = findEngineBinary("opencode");
  const claude = await claudeCodeEngine.status();
  if (!codex.found || !opencode.found || !claude.available || !claude.binaryPath) {
    console.log(
      `\nEngines benchmark skipped: ${[codex, opencode].flatMap((lookup) => (lookup.found ? [] : [lookup.reason])).join(" ")} ${claude.available ? "" : claude.reason}`,
    );
    return;
  }
  const claudeEdit = builtInScenarios()["claude-edit-heading"];
  const modelServer = await startModelServer({
    scenarios: { "claude-haiku-4-5": { ...claudeEdit, name: "claude-haiku-4-5" } },
  });
  const dataDir = temporaryDataDir("bench-engines");
  const server = await startPatchworkServer({
    env: {
      ...modelServerEnvironment(modelServer.url),
      PATCHWORK_DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: "scripted-key",
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${modelServer.port}`,
    },
  });
  const bareHome = temporaryDataDir("bench-bare-opencode-home");
  const paths = {
    native: () =>
      timePatchworkRun(server, { input: "Change the heading", model_id: "compatible:happy-path" }),
    codex: () =>
      timePatchworkRun(server, {
        input: "Change the heading",
        model_id: "compatible:codex-edit-heading",
        engine: "codex",
        approval_policy: "auto",
      }),
    "bare-codex": () => timeBareCodex(codex.path, modelServer),
    opencode: () =>
      timePatchworkRun(server, {
        input: "Change the heading",
        model_id: "compatible:opencode-edit-heading",
        engine: "opencode",
        approval_policy: "auto",
      }),
    "bare-opencode": () => timeBareOpencode(opencode.path, modelServer, bareHome),
    claude: () =>
      timePatchworkRun(server, {
        input: "Change the heading",
        model_id: "anthropic:claude-haiku-4-5",
        engine: "claude-code",
        approval_policy: "auto",
      }),
    "bare-claude": () => timeBareClaude(claude.binaryPath as string, modelServer),
  } as const;
  const samples: Record<keyof typeof paths, Timing[]> = {
    native: [],
    codex: [],
    "bare-codex": [],
    opencode: [],
    "bare-opencode": [],
    claude: [],
    "bare-claude": [],
  };
  try {
    // One warm-up each: the starter's first preview build, Codex's catalog read, OpenCode's
    // server start (it stays up for later runs, by design), Claude Code's first start.
    for (const measure of Object.values(paths)) await measure();
    for (let iteration = 0; iteration < iterations; iteration += 1) {
      for (const [key, measure] of Object.entries(paths))
        samples[key as keyof typeof paths].push(await measure());
    }
  } finally {
    await server.stop();
    await stopOpencodeServers();
    await modelServer.close();
  }
  const medianOf = (key: keyof typeof paths, field: "firstDeltaMs" | "wholeMs") =>
    median(samples[key].map((sample) => sample[field]));
  const memory = (key: keyof typeof paths) => {
    const values = samples[key]
      .map((sample) => sample.rssBytes ?? Number.NaN)
      .filter(Number.isFinite);
    return values.length > 0 ? formatBytes(median(values)) : "-";
  };
  const row = (label: string, key: keyof typeof paths, floor: keyof typeof paths) => ({
    path: label,
    "first delta ms": formatMs(medianOf(key, "firstDeltaMs")),
    "whole run ms": formatMs(medianOf(key, "wholeMs")),
    "first delta vs floor": `${(medianOf(key, "firstDeltaMs") / medianOf(floor, "firstDeltaMs")).toFixed(2)}x`,
    "whole run vs floor": `${(medianOf(key, "wholeMs") / medianOf(floor, "wholeMs")).toFixed(2)}x`,
    "engine RSS": memory(key),
  });
  printTable(
    `Engines: the same heading edit, ${iterations} runs each, medians (request or spawn → first text delta, → run ended); each engine against itself driven directly (its floor)`,
    [
      row("native agent through Patchwork (vs bare Codex)", "native", "bare-codex"),
      row("Codex through Patchwork", "codex", "bare-codex"),
      row("bare codex app-server (floor)", "bare-codex", "bare-codex"),
      row("OpenCode through Patchwork", "opencode", "bare-opencode"),
      row("bare OpenCode SDK + warm serve (floor)", "bare-opencode", "bare-opencode"),
      row("Claude Code through Patchwork", "claude", "bare-claude"),
      row("bare Claude agent SDK (floor)", "bare-claude", "bare-claude"),
    ],
  );
  console.log(
    `Through Patchwork, whole run vs native: Codex ${(medianOf("codex", "wholeMs") / medianOf("native", "wholeMs")).toFixed(2)}x, OpenCode ${(medianOf("opencode", "wholeMs") / medianOf("native", "wholeMs")).toFixed(2)}x, Claude Code ${(medianOf("claude", "wholeMs") / medianOf("native", "wholeMs")).toFixed(2)}x. Engine RSS: the codex / claude process at the end of its turn, the shared opencode serve after it.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runEnginesBench();
}
