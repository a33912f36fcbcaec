// The patch engine on a worker thread: bundled at run time (see apply-patch-in-worker.ts) and
// started with `eval`, so a patch that searches long can be stopped by terminating the thread
// without ever holding the server's event loop. Messages: a request in, a reply out, by id.
import { parentPort } from "node:worker_threads";
import { applyPatch } from "../patch/apply-patch";
import type { PatchFileSource } from "../patch/patch-result";

export interface PatchWorkerRequest {
  id: number;
  patch: string;
  /** The files the caller loaded: their text, or null for a file that is not text. */
  files: [string, string | null][];
  /** Every path in the workspace. */
  paths: string[];
}

export interface PatchWorkerReply {
  id: number;
  result?: ReturnType<typeof applyPatch>;
  /** Paths the engine asked for that exist but were not sent: load them and ask again. */
  unloaded?: string[];
  error?: string;
}

parentPort?.on("message", (request: PatchWorkerRequest) => {
  try {
    const texts = new Map(request.files);
    const paths = new Set(request.paths);
    const unloaded = new Set<string>();
    const source: PatchFileSource = {
      get(path) {
        const text = texts.get(path);
        if (text === undefined && paths.has(path)) unloaded.add(path);
        return text ?? undefined;
      },
      has: (path) => paths.has(path),
      keys: () => paths,
      isDirectory: (path) => {
        const prefix = `${path}/`;
        for (const candidate of paths) if (candidate.startsWith(prefix)) return true;
        return false;
      },
    };
    const result = applyPatch({ files: source, patch: request.patch });
    const reply: PatchWorkerReply = { id: request.id, result, unloaded: [...unloaded] };
    parentPort?.postMessage(reply);
  } catch (error) {
    const reply: PatchWorkerReply = {
      id: request.id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
    parentPort?.postMessage(reply);
  }
});
