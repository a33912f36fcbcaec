import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { VerificationDiagnostic } from "./tools";

const workerKey = Symbol.for("patchwork.typeCheckWorker");
type WorkerState = {
  worker: Worker;
  nextId: number;
  pending: Map<
    number,
    { resolve: (value: VerificationDiagnostic[]) => void; reject: (error: Error) => void }
  >;
};
type GlobalWithWorker = typeof globalThis & { [workerKey]?: WorkerState };

function getWorker(): WorkerState {
  const holder = globalThis as GlobalWithWorker;
  if (holder[workerKey]) return holder[workerKey];
  // Resolved from the project folder at run time: the worker runs from disk, not from the bundle.
  const worker = new Worker(
    path.join(
      /*turbopackIgnore: true*/ process.cwd(),
      "lib",
      "agent",
      "engines",
      "native",
      "type-check-worker.mjs",
    ),
  );
  worker.unref();
  const state: WorkerState = { worker, nextId: 1, pending: new Map() };
  worker.on(
    "message",
    (message: { id: number; diagnostics?: VerificationDiagnostic[]; error?: string }) => {
      const waiter = state.pending.get(message.id);
      state.pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.diagnostics ?? []);
    },
  );
  worker.on("error", (error) => {
    for (const waiter of state.pending.values()) waiter.reject(error);
    state.pending.clear();
    holder[workerKey] = undefined;
  });
  holder[workerKey] = state;
  return state;
}

/**
 * Type-checks the app's TypeScript in memory on a long-lived worker thread (library typings are
 * parsed once per process). Returns errors in the app's own coordinates.
 */
export function typeCheckWorkspace(
  files: ReadonlyMap<string, Uint8Array | string>,
): Promise<VerificationDiagnostic[]> {
  const decoder = new TextDecoder();
  const entries: [string, string][] = [];
  for (const [filePath, content] of files) {
    if (/\.(tsx?|jsx?|json)$/.test(filePath))
      entries.push([filePath, typeof content === "string" ? content : decoder.decode(content)]);
  }
  const state = getWorker();
  const id = state.nextId++;
  return new Promise((resolve, reject) => {
    state.pending.set(id, { resolve, reject });
    state.worker.postMessage({ id, files: entries });
  });
}
