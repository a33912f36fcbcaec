import "server-only";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { getEnvironment } from "@/lib/env";
import { binaryVersionOutput } from "../binary-version";
import type { CodingEngine, EngineModel, EngineStatus } from "../engine";
import { findEngineBinary, pinnedEngines } from "../engine-binaries";
import { withEngineProcess } from "../engine-process";
import { codexKeyVariable, prepareCodexHome, removeCodexHome } from "./codex-home";
import { codexCatalogEntryTemplate } from "./codex-model-catalog";
import { CodexSession } from "./codex-session";
import {
  isSupportedCodexVersion,
  parseCodexVersion,
  supportedCodexDescription,
} from "./codex-version";

const label = "Codex";

async function codexStatus(): Promise<EngineStatus> {
  const lookup = findEngineBinary("codex");
  if (!lookup.found) {
    return {
      id: "codex",
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNAVAILABLE",
      reason: lookup.reason,
    };
  }
  let output: string;
  try {
    output = await binaryVersionOutput(lookup.path);
  } catch (error) {
    return {
      id: "codex",
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNAVAILABLE",
      binaryPath: lookup.path,
      reason: `${lookup.path} did not answer \`--version\` (${(error as Error).message.slice(0, 200)}). Run \`npm run engines:install\`.`,
    };
  }
  const version = parseCodexVersion(output);
  if (!version || !isSupportedCodexVersion(version)) {
    return {
      id: "codex",
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME",
      binaryPath: lookup.path,
      version: version?.join(".") ?? output.slice(0, 50),
      reason: `Codex ${version?.join(".") ?? "of an unknown version"} is installed; Patchwork drives Codex ${supportedCodexDescription}. Run \`npm run engines:install\` (installs ${pinnedEngines.codex.version}).`,
    };
  }
  return {
    id: "codex",
    label,
    available: true,
    version: version.join("."),
    binaryPath: lookup.path,
  };
}

/** Codex talks only to providers that speak the OpenAI Responses API. */
function modelUnsupportedReason(model: EngineModel): string | null {
  if (model.provider === "openai" || model.provider === "compatible") {
    return model.baseUrl ? null : "its provider has no base URL configured";
  }
  return "Codex needs a provider that speaks the OpenAI Responses API (OpenAI, or an OpenAI-compatible endpoint that serves /responses).";
}

/**
 * Codex (`codex app-server`) as a Patchwork engine: works in the run's private folder, one
 * process per run, the app's threads kept in its own Codex home so follow-ups resume them.
 */
export const codexEngine: CodingEngine = {
  id: "codex",
  label,
  workspaceForm: "folder",
  status: codexStatus,
  modelUnsupportedReason,
  models: {
    providers: ["openai", "compatible"],
    requirement:
      "Codex needs a provider that speaks the OpenAI Responses API (OpenAI, or an OpenAI-compatible endpoint that serves /responses).",
  },
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
