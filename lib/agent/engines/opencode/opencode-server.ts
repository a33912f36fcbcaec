import "server-only";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { redactSecrets } from "@/lib/redact-secrets";
import type { EngineModel } from "../engine";
import { killGroupWhenParentDies } from "../parent-watch";

/** The provider id OpenCode knows our endpoint by, and the variable its key is read from. */
export const opencodeProviderId = "patchwork";
const keyVariable = "PATCHWORK_MODEL_API_KEY";
const readyTimeoutMs = 30_000;
/** A server nobody used for this long is stopped (each holds ~200 MB). */
const idleStopMs = 10 * 60_000;

export interface OpencodeServer {
  baseUrl: string;
  /** The Authorization header value for its basic auth. */
  authorization: string;
  pid: number;
  /** Resolves when the server process exits (a later run starts a new one). */
  exited: Promise<void>;
  /** Marks the server in use; call the returned function when done. */
  retain(): () => void;
}

interface ServerEntry {
  /** Null until the process is spawned (a free port is found first). */
  child: ChildProcess | null;
  ready: Promise<OpencodeServer>;
  users: number;
  idleTimer: NodeJS.Timeout | null;
}

const servers = new Map<string, ServerEntry>();

// The servers run in process groups of their own (so their children go with them); they must not
// outlive this process. `exit` handlers may only do synchronous work: a group kill is.
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const entry of servers.values()) {
      try {
        if (entry.child?.pid) process.kill(-entry.child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });
}

/**
 * OpenCode's config for one model, inline (OPENCODE_CONFIG_CONTENT): the endpoint as an
 * OpenAI-compatible provider whose key comes from our variable, edits and commands asked for
 * (the run's policy is applied when Patchwork answers), web fetches refused, and nothing that
 * reaches out on its own (updates, sharing, model list downloads).
 */
export function opencodeConfig(model: EngineModel): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    provider: {
      [opencodeProviderId]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Patchwork",
        options: { baseURL: model.baseUrl, apiKey: `{env:${keyVariable}}` },
        models: { [model.name]: { name: model.name, tool_call: true } },
      },
    },
    model: `${opencodeProviderId}/${model.name}`,
    small_model: `${opencodeProviderId}/${model.name}`,
    permission: { edit: "ask", bash: "ask", webfetch: "deny" },
    autoupdate: false,
    share: "disabled",
  };
}

function serverKey(binary: string, model: EngineModel): string {
  return JSON.stringify([binary, model.baseUrl, model.name, model.apiKey ?? ""]);
}

/**
 * The `opencode serve` for this model (one per endpoint and model in this process), started on
 * first use on 127.0.0.1 with a random password, and started again if it died. `home` holds its
 * private HOME and XDG folders (its sessions live there, so a follow-up can continue one).
 */
export function getOpencodeServer(options: {
  binary: string;
  model: EngineModel;
  home: string;
}): Promise<OpencodeServer> {
  const key = serverKey(options.binary, options.model);
  const existing = servers.get(key);
  if (existing && isAlive(existing)) return existing.ready;
  installExitHook();
  const entry = startServer(options, key);
  servers.set(key, entry);
  entry.ready.catch(() => {
    if (servers.get(key) === entry) servers.delete(key);
  });
  return entry.ready;
}

/** Stops every OpenCode server this process started (tests, shutdown). */
export async function stopOpencodeServers(): Promise<void> {
  const entries = [...servers.values()];
  servers.clear();
  await Promise.all(entries.map((entry) => stopEntry(entry)));
}

function isAlive(entry: ServerEntry): boolean {
  return entry.child === null || (entry.child.exitCode === null && entry.child.signalCode === null);
}

async function stopEntry(entry: ServerEntry): Promise<void> {
  if (entry.idleTimer) clearTimeout(entry.idleTimer);
  const child = entry.child;
  if (!child || !isAlive(entry)) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
  await exited;
}

function startServer(
  options: { binary: string; model: EngineModel; home: string },
  key: string,
): ServerEntry {
  const password = randomBytes(24).toString("hex");
  const entry: ServerEntry = { child: null, ready: Promise.reject(), users: 0, idleTimer: null };
  entry.ready.catch(() => {});
  entry.ready = (async () => {
    const port = await freePort();
    const home = options.home;
    await mkdir(path.join(home, "config"), { recursive: true, mode: 0o700 });
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_DATA_HOME: path.join(home, "data"),
      XDG_CACHE_HOME: path.join(home, "cache"),
      XDG_STATE_HOME: path.join(home, "state"),
      LANG: "C.UTF-8",
      OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(options.model)),
      OPENCODE_SERVER_PASSWORD: password,
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      // It installs plugin packages at start even when told not to: point npm at nothing.
      npm_config_registry: "http://127.0.0.1:9/",
      [keyVariable]: options.model.apiKey ?? "patchwork-no-key",
    };
    const child = spawn(
      options.binary,
      ["serve", "--hostname", "127.0.0.1", "--port", String(port)],
      {
        cwd: home,
        env: env as unknown as NodeJS.ProcessEnv,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    entry.child = child;
    // The exit hook cannot run when this process is killed with -9; the watcher can.
    if (child.pid) killGroupWhenParentDies(child.pid);
    let output = "";
    const collect = (chunk: Buffer) => {
      output = `${output}${redactSecrets(chunk.toString("utf8"), env)}`.slice(-4000);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("exit", () => {
      if (servers.get(key) === entry) servers.delete(key);
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const authorization = `Basic ${Buffer.from(`opencode:${password}`).toString("base64")}`;
    await waitUntilReady(baseUrl, authorization, child, () => output);
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
    const server: OpencodeServer = {
      baseUrl,
      authorization,
      pid: child.pid as number,
      exited,
      retain() {
        entry.users += 1;
        if (entry.idleTimer) clearTimeout(entry.idleTimer);
        entry.idleTimer = null;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          entry.users -= 1;
          if (entry.users === 0) {
            entry.idleTimer = setTimeout(() => {
              if (servers.get(key) === entry) servers.delete(key);
              void stopEntry(entry);
            }, idleStopMs);
            entry.idleTimer.unref();
          }
        };
      },
    };
    return server;
  })();
  // A server that never became ready is not left running.
  entry.ready.catch(() => void stopEntry(entry));
  return entry;
}

/** Polls `GET /session` with a short per-request deadline until the server answers. */
async function waitUntilReady(
  baseUrl: string,
  authorization: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `opencode serve exited (${child.exitCode ?? child.signalCode}) before it was ready: ${output().trim().split("\n").slice(-3).join(" | ")}`,
      );
    }
    try {
      const response = await fetch(`${baseUrl}/session`, {
        headers: { authorization },
        signal: AbortSignal.timeout(1_000),
      });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(`opencode serve was not ready within ${readyTimeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
