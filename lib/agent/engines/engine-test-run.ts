import path from "node:path";
import type { ModelMessage } from "ai";
import { materializeFolder } from "@/lib/agent/workspace/workspace-folder";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import type { EngineModel, EngineRunInput } from "./engine";

/**
 * For engine tests: a run's input in a freshly materialised folder under `dataDirectory/runs`
 * (the starter app unless `files` says otherwise), as the executor would hand it to an engine.
 */
export async function engineTestRun(options: {
  dataDirectory: string;
  /** The folder's name; runs of one app share one, as the workspace bridge does. */
  folderId: string;
  runId: string;
  appId: string;
  model: EngineModel;
  input?: string;
  /** Earlier turns, before this run's input. */
  earlier?: ModelMessage[];
  resumeRef?: string | null;
  signal?: AbortSignal;
  files?: Record<string, string>;
  maxIterations?: number;
}): Promise<{ input: EngineRunInput; folder: string }> {
  const files = new Map(
    Object.entries(options.files ?? starterTemplateFiles).map(([file, text]) => [
      file,
      new TextEncoder().encode(text),
    ]),
  );
  const folder = await materializeFolder(
    path.join(options.dataDirectory, "runs"),
    options.folderId,
    files,
  );
  const input = options.input ?? "Change the heading";
  return {
    folder,
    input: {
      run: { id: options.runId, appId: options.appId } as EngineRunInput["run"],
      model: options.model,
      input,
      conversation: {
        appName: "Test app",
        messages: [...(options.earlier ?? []), { role: "user", content: input }],
      },
      resumeRef: options.resumeRef ?? null,
      workspace: { form: "folder", directory: folder },
      approvalPolicy: "ask",
      signal: options.signal ?? AbortSignal.timeout(60_000),
      limits: {
        maxIterations: options.maxIterations ?? 20,
        inactivityTimeoutMs: 60_000,
        runTimeoutMs: 60_000,
        maxCostUsd: 2,
      },
    },
  };
}
