import "server-only";
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { redactSecrets } from "@/lib/redact-secrets";
import type { EngineSink } from "./engine";

/** Marks an engine's process group with its run, so a reaper never kills a stranger's reused pid. */
const runMarkerVariable = "PATCHWORK_ENGINE_RUN_ID";
const maximumStderrTail = 4_000;

export interface EngineProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves when the process exits (never rejects). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last few KB of stderr, already redacted, for a crash message or the log. */
  stderrTail(): string;
  /** SIGKILLs the whole process group (the CLI and anything it started); safe to call twice. */
  killGroup(): void;
}

export interface SpawnEngineOptions {
  runId: string;
  command: string;
  args: readonly string[];
  cwd: string;
  /** The complete environment: nothing of the server's is inherited unless passed here. */
  env: Record<string, string>;
  sink: EngineSink;
  /** Each stderr line, redacted. */
  onStderrLine?: (line: string) => void;
}

/**
 * Spawns an engine CLI in its own process group and records its pid on the run (so a restarted
 * server can reap what a dead one left). Use through {@link withEngineProcess}, which kills the
 * group and clears the pid on every path out.
 */
export async function spawnEngineProcess(options: SpawnEngineOptions): Promise<EngineProcess> {
  // Only what the caller passes: the server's own environment (keys, DATABASE_URL) stays out.
  const env: Record<string, string> = { ...options.env, [runMarkerVariable]: options.runId };
  const child: ChildProcess = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: env as unknown as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: null, signal: null }));
  });
  let tail = "";
  let partial = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const raw of lines) {
      // The engine's own environment holds its provider key; redact that as well as the server's.
      const line = redactSecrets(redactSecrets(raw), options.env);
      tail = `${tail}${line}\n`.slice(-maximumStderrTail);
      options.onStderrLine?.(line);
    }
  });
  const pid = child.pid;
  if (pid === undefined) {
    const failure = await exited;
    throw new Error(`could not start ${options.command} (${JSON.stringify(failure)})`);
  }
  await options.sink.recordProcess(pid);
  let killed = false;
  return {
    child,
    pid,
    exited,
    stderrTail: () => tail,
    killGroup() {
      if (killed) return;
      killed = true;
      killProcessGroup(pid);
    },
  };
}

/** Runs `work` with a spawned engine and always kills its group and clears its recorded pid. */
export async function withEngineProcess<Result>(
  options: SpawnEngineOptions,
  work: (process: EngineProcess) => Promise<Result>,
): Promise<Result> {
  const engineProcess = await spawnEngineProcess(options);
  try {
    return await work(engineProcess);
  } finally {
    engineProcess.killGroup();
    await options.sink.recordProcess(null);
  }
}

function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * Kills the process group a dead server left for a run, but only if its leader still carries the
 * run's marker (Linux /proc); a pid reused by something else is left alone. Returns whether it
 * killed.
 */
export async function reapEngineProcess(pid: number, runId: string): Promise<boolean> {
  let environment: string;
  try {
    environment = await readFile(`/proc/${pid}/environ`, "utf8");
  } catch {
    return false;
  }
  if (!environment.split("\0").includes(`${runMarkerVariable}=${runId}`)) return false;
  killProcessGroup(pid);
  return true;
}
