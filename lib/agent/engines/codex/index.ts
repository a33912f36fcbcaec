import "server-only";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { getEnvironment } from "@/lib/env";
import type { CodingEngine } from "../engine";
import { withEngineProcess } from "../engine-process";
import { pinnedEngineStatus, providerMismatch } from "../pinned-engine-status";
import { codexKeyVariable, prepareCodexHome, removeCodexHome } from "./codex-home";
import { codexCatalogEntryTemplate } from "./codex-model-catalog";
import { CodexSession } from "./codex-session";
import { supportedCodexRange } from "./codex-version";

const label = "Codex";

const codexModels = {
  providers: ["openai", "compatible"],
  requirement:
    "Codex needs a provider that speaks the OpenAI Responses API (OpenAI, or an OpenAI-compatible endpoint that serves /responses).",
} as const;

const codexStatus = () => pinnedEngineStatus("codex", label, supportedCodexRange);

/**
 * Codex (`codex app-server`) as a Patchwork engine: works in the run's private folder, one
 * process per run, the app's threads kept in its own Codex home so follow-ups resume them.
 */
export const codexEngine: CodingEngine = {
  id: "codex",
  label,
  workspaceForm: "folder",
  status: codexStatus,
  modelUnsupportedReason: (model) => providerMismatch(model, codexModels),
  models: codexModels,
  async run(input, sink) {
    if (input.workspace.form !== "folder") throw new Error("Codex works in a folder");
    const folder = input.workspace.directory;
    const status = await codexStatus();
    if (!status.available || !status.binaryPath) {
      throw new RunFailure(
        status.code ?? "CODING_AGENT_ENGINE_UNAVAILABLE",
        status.reason ?? "Codex is not available.",
      );
    }
    const binary = status.binaryPath;
    const home = await prepareCodexHome({
      dataDirectory: getEnvironment().PATCHWORK_DATA_DIR,
      appId: input.run.appId,
      model: input.model,
      workFolder: folder,
      catalogEntryTemplate: await codexCatalogEntryTemplate(binary),
    });
    return withEngineProcess(
      {
        runId: input.run.id,
        command: binary,
        args: ["app-server"],
        cwd: folder,
        // Nothing of the server's own environment: only what Codex needs, and the model's key
        // under a name of our own.
        env: {
          PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
          HOME: home,
          CODEX_HOME: home,
          LANG: "C.UTF-8",
          [codexKeyVariable]: input.model.apiKey ?? "patchwork-no-key",
        },
        sink,
      },
      (engineProcess) => new CodexSession(engineProcess, input, sink, folder).run(),
    );
  },
  removeAppState: (appId) => removeCodexHome(getEnvironment().PATCHWORK_DATA_DIR, appId),
};
