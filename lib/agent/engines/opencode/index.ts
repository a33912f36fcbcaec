import "server-only";
import path from "node:path";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { getEnvironment } from "@/lib/env";
import type { CodingEngine } from "../engine";
import { pinnedEngineStatus, providerMismatch } from "../pinned-engine-status";
import { getOpencodeServer } from "./opencode-server";
import { OpencodeSession } from "./opencode-session";

const label = "OpenCode";
/** The SDK (1.19.3) is tested against CLI 1.18.33; the server API moves between minors. */
const supported = { minimum: [1, 18, 0], belowMinor: [1, 19] } as const;

const opencodeModels = {
  providers: ["compatible", "openai", "ollama"],
  requirement:
    "OpenCode is driven through an OpenAI-compatible chat completions endpoint (OpenAI, the OpenAI-compatible endpoint, or Ollama).",
} as const;

const opencodeStatus = () => pinnedEngineStatus("opencode", label, supported);

/**
 * OpenCode (`opencode serve`, through `@opencode-ai/sdk`) as a Patchwork engine: one server per
 * model in this process, one session per run in the run's private folder.
 */
export const opencodeEngine: CodingEngine = {
  id: "opencode",
  label,
  workspaceForm: "folder",
  status: opencodeStatus,
  modelUnsupportedReason: (model) => providerMismatch(model, opencodeModels),
  models: opencodeModels,
  async run(input, sink) {
    if (input.workspace.form !== "folder") throw new Error("OpenCode works in a folder");
    const status = await opencodeStatus();
    if (!status.available || !status.binaryPath) {
      throw new RunFailure(
        status.code ?? "CODING_AGENT_ENGINE_UNAVAILABLE",
        status.reason ?? "OpenCode is not available.",
      );
    }
    let server: Awaited<ReturnType<typeof getOpencodeServer>>;
    try {
      server = await getOpencodeServer({
        binary: status.binaryPath,
        model: input.model,
        home: path.resolve(getEnvironment().PATCHWORK_DATA_DIR, "engines", "opencode", "home"),
      });
    } catch (error) {
      throw new RunFailure(
        "CODING_AGENT_ENGINE_CRASHED",
        `OpenCode could not start: ${(error as Error).message}`,
      );
    }
    const release = server.retain();
    try {
      return await new OpencodeSession(server, input, sink, input.workspace.directory).run();
    } finally {
      release();
    }
  },
};
