/**
 * Engines benchmark (issue 14): the same edit — the starter's heading changed with one patch —
 * made by each engine against the scripted model server, timed from the request to the first text
 * delta and to the run's end.
 *
 *   - native through Patchwork: POST a run (`compatible:happy-path`), read its SSE stream;
 *   - Codex through Patchwork: the same, `engine: "codex"`, approval policy `auto` (file changes
 *     inside the app are accepted without a card, so no person is in the loop);
 *   - bare Codex, the floor: `codex app-server` spawned and driven directly over stdio with the
 *     same config (handshake, thread, turn, the approval answered at once) — what any client of
 *     the CLI pays before Patchwork adds its folder, events, database and SSE.
 *
 * Needs a production build (`npm run build`) and `npm run engines:install`. Run: npm run bench:engines
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareCodexHome } from "@/lib/agent/engines/codex/codex-home";
import { codexCatalogEntryTemplate } from "@/lib/agent/engines/codex/codex-model-catalog";
import { JsonRpcConnection } from "@/lib/agent/engines/codex/json-rpc-connection";
import { findEngineBinary } from "@/lib/agent/engines/engine-binaries";
import { materializeFolder } from "@/lib/agent/workspace/workspace-folder";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { type ModelServer, modelServerEnvironment, startModelServer } from "@/test/model-server";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { openSse, runStreamUrl } from "@/test/support/sse-client";
import { formatMs, median, printTable } from "./table";

const iterations = 7;

interface Timing {
  firstDeltaMs: number;
  wholeMs: number;
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
    return { firstDeltaMs, wholeMs: performance.now() - started };
  } finally {
    child.kill("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function runEnginesBench(): Promise<void> {
  const codex = findEngineBinary("codex");
  if (!codex.found) {
    console.log(`\nEngines benchmark skipped: ${codex.reason}`);
    return;
  }
  const modelServer = await startModelServer();
  const server = await startPatchworkServer({
    env: {
      ...modelServerEnvironment(modelServer.url),
      PATCHWORK_DATA_DIR: temporaryDataDir("bench-engines"),
    },
  });
  const samples: Record<string, Timing[]> = { native: [], codex: [], bare: [] };
  try {
    // One warm-up each (first build of the starter's preview, Codex's catalog read).
    await timePatchworkRun(server, {
      input: "Change the heading",
      model_id: "compatible:happy-path",
    });
    await timeBareCodex(codex.path, modelServer);
    for (let iteration = 0; iteration < iterations; iteration += 1) {
      samples.native.push(
        await timePatchworkRun(server, {
          input: "Change the heading",
          model_id: "compatible:happy-path",
        }),
      );
      samples.codex.push(
        await timePatchworkRun(server, {
          input: "Change the heading",
          model_id: "compatible:codex-edit-heading",
          engine: "codex",
          approval_policy: "auto",
        }),
      );
      samples.bare.push(await timeBareCodex(codex.path, modelServer));
    }
  } finally {
    await server.stop();
    await modelServer.close();
  }
  const medianOf = (key: string, field: keyof Timing) =>
    median(samples[key].map((sample) => sample[field]));
  const row = (label: string, key: string) => ({
    path: label,
    "first delta ms (median)": formatMs(medianOf(key, "firstDeltaMs")),
    "whole run ms (median)": formatMs(medianOf(key, "wholeMs")),
    "first delta vs bare Codex": `${(medianOf(key, "firstDeltaMs") / medianOf("bare", "firstDeltaMs")).toFixed(2)}x`,
    "whole run vs bare Codex": `${(medianOf(key, "wholeMs") / medianOf("bare", "wholeMs")).toFixed(2)}x`,
  });
  printTable(
    `Engines: the same heading edit, ${iterations} runs each (spawn or request → first text delta, → run ended)`,
    [
      row("native agent through Patchwork", "native"),
      row("Codex through Patchwork (auto policy)", "codex"),
      row("bare codex app-server (floor)", "bare"),
    ],
  );
  console.log(
    `Codex vs native through Patchwork: first delta ${(medianOf("codex", "firstDeltaMs") / medianOf("native", "firstDeltaMs")).toFixed(2)}x, whole run ${(medianOf("codex", "wholeMs") / medianOf("native", "wholeMs")).toFixed(2)}x.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runEnginesBench();
}
