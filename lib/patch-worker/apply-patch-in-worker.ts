import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import type { PatchResult } from "@/lib/patch";
import type { PatchWorkerReply, PatchWorkerRequest } from "./patch-worker-entry";

/** What the engine may read: the caller's files, loaded on demand. */
export interface PatchWorkspace {
  paths(): string[];
  /** Loaded files: text, or null when the file is not text. Unloaded paths are absent. */
  loaded(paths: readonly string[]): Map<string, string | null>;
  load(paths: readonly string[]): Promise<void>;
}

/** Thrown when the patch was stopped (tool time limit or Stop): the thread was terminated. */
export class PatchStopped extends Error {
  constructor(reason: unknown) {
    super("the patch was stopped before it finished", { cause: reason });
    this.name = "PatchStopped";
  }
}

// Threads kept warm between patches; a stopped patch's thread is terminated, never reused.
const maximumIdleWorkers = 2;

interface PatchWorkerPool {
  code: Promise<string>;
  idle: Worker[];
}

const poolKey = Symbol.for("patchwork.patchWorkerPool");
type GlobalWithPool = typeof globalThis & { [poolKey]?: PatchWorkerPool };

/**
 * The engine and its worker entry as one CommonJS script, bundled from source on first use (the
 * server runs from its checkout, as the preview bundler does): no build step, and the same code
 * under `next start`, vitest and tsx.
 */
function bundleWorker(): Promise<string> {
  const entry = path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    "lib",
    "patch-worker",
    "patch-worker-entry.ts",
  );
  return build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "silent",
  }).then((result) => result.outputFiles[0].text);
}

function pool(): PatchWorkerPool {
  const holder = globalThis as GlobalWithPool;
  if (!holder[poolKey]) {
    const code = bundleWorker();
    // A failed bundle is retried by the next patch rather than cached forever.
    code.catch(() => {
      holder[poolKey] = undefined;
    });
    holder[poolKey] = { code, idle: [] };
  }
  return holder[poolKey];
}

async function takeWorker(): Promise<Worker> {
  const shared = pool();
  const idle = shared.idle.pop();
  if (idle) return idle;
  const worker = new Worker(await shared.code, { eval: true });
  worker.unref();
  return worker;
}

function returnWorker(worker: Worker): void {
  const shared = pool();
  if (shared.idle.length < maximumIdleWorkers) shared.idle.push(worker);
  else void worker.terminate();
}

let nextRequestId = 1;

/** One request on one thread; terminates the thread when `signal` aborts first. */
async function runOnWorker(
  request: Omit<PatchWorkerRequest, "id">,
  signal: AbortSignal,
): Promise<PatchWorkerReply> {
  signal.throwIfAborted();
  const worker = await takeWorker();
  const id = nextRequestId++;
  return new Promise<PatchWorkerReply>((resolve, reject) => {
    const cleanUp = () => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      signal.removeEventListener("abort", onAbort);
    };
    const onMessage = (reply: PatchWorkerReply) => {
      if (reply.id !== id) return;
      cleanUp();
      returnWorker(worker);
      resolve(reply);
    };
    const onError = (error: Error) => {
      cleanUp();
      void worker.terminate();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanUp();
      reject(new Error(`the patch worker exited (${code})`));
    };
    const onAbort = () => {
      cleanUp();
      void worker.terminate();
      reject(new PatchStopped(signal.reason));
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    signal.addEventListener("abort", onAbort, { once: true });
    worker.postMessage({ ...request, id } satisfies PatchWorkerRequest);
  });
}

/**
 * Applies a patch with the pure engine on a worker thread, so however long its search takes the
 * server keeps answering, and `signal` (the tool's time limit, or Stop) ends it at once by
 * terminating the thread. The files the patch names are loaded first; if the engine asks for one
 * more, it is loaded and the patch runs once more.
 */
export async function applyPatchInWorker(
  workspace: PatchWorkspace,
  patch: string,
  namedPaths: readonly string[],
  signal: AbortSignal,
): Promise<PatchResult> {
  await workspace.load(namedPaths);
  const attempt = async (paths: readonly string[]) => {
    const reply = await runOnWorker(
      { patch, files: [...workspace.loaded(paths)], paths: workspace.paths() },
      signal,
    );
    if (reply.error !== undefined || !reply.result)
      throw new Error(`the patch engine failed: ${reply.error ?? "no result"}`);
    return { result: reply.result, unloaded: reply.unloaded ?? [] };
  };
  const first = await attempt(namedPaths);
  if (first.unloaded.length === 0) return first.result;
  await workspace.load(first.unloaded);
  return (await attempt([...namedPaths, ...first.unloaded])).result;
}
