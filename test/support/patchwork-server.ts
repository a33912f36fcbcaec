import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureSuiteDatabase } from "./scratch-postgres";

const root = path.resolve(import.meta.dirname, "../..");

export interface PatchworkServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed, for assertions on logs (e.g. no secrets). */
  output(): string;
  /** SIGKILL: a crash, with no chance to clean up. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export function temporaryDataDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `patchwork-${label}-`));
}

/** This process's environment for a Patchwork child, with `overrides` (undefined removes). */
function childEnvironment(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = {} as NodeJS.ProcessEnv;
  for (const [key, value] of Object.entries({
    ...process.env,
    NODE_ENV: "production",
    PATCHWORK_DISABLE_OLLAMA_DETECTION: "1",
    // The end-of-run check (a browser per run) has its own suite, run-check; elsewhere runs
    // end without it so their event sequences stay what those suites assert.
    APPS_CODING_AGENT_AUTO_VERIFY: "0",
    ...overrides,
  })) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/**
 * Starts the production build (`next start`) on 127.0.0.1 with the given environment and waits
 * for /api/health. Needs `npm run build` first; `npm test` does that.
 */
export async function startPatchworkServer(
  options: { env?: Record<string, string | undefined>; port?: number } = {},
): Promise<PatchworkServer> {
  const distDir = process.env.PATCHWORK_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID"))) {
    throw new Error(
      "No production build found: run `npm run build` before the integration tests (npm test does).",
    );
  }
  const port = options.port ?? (await freePort());
  const env = childEnvironment(options.env);
  if (!env.DATABASE_URL && !env.PATCHWORK_DATA_DIR)
    env.PATCHWORK_DATA_DIR = temporaryDataDir("server");
  await ensureSuiteDatabase(env.DATABASE_URL);
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules/next/dist/bin/next"),
      "start",
      "--hostname",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`Patchwork server exited early (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`Patchwork server did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    process: child,
    output: () => output,
    async kill() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** JSON fetch against a server, sending the builder's own Origin like the browser would for mutations. */
export async function api(
  server: { url: string },
  pathname: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${server.url}${pathname}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === "string"
          ? init.body
          : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (HTML documents); keep the text.
  }
  return { status: response.status, body, headers: response.headers };
}

export interface PatchworkWorker {
  process: ChildProcess;
  output(): string;
  /** SIGKILL: a crash, with no chance to clean up. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `npm run worker` (the built worker, `scripts/worker.mjs`) with the given environment
 * (DATABASE_URL required) and waits until it executes runs.
 */
export async function startPatchworkWorker(options: {
  env: Record<string, string | undefined>;
}): Promise<PatchworkWorker> {
  const env = childEnvironment(options.env);
  env.PATCHWORK_DATA_DIR ??= temporaryDataDir("worker");
  await ensureSuiteDatabase(env.DATABASE_URL);
  const child = spawn(process.execPath, [path.join(root, "scripts/worker.mjs")], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let ready: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const collect = (chunk: Buffer) => {
    output += chunk;
    if (output.includes("executing runs")) ready();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const outcome = await Promise.race([
    started.then(() => "started" as const),
    exited.then(() => "exited" as const),
    new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 60_000).unref()),
  ]);
  if (outcome !== "started") {
    child.kill("SIGKILL");
    throw new Error(`Patchwork worker did not start (${outcome}):\n${output}`);
  }
  return {
    process: child,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
