import "server-only";
import path from "node:path";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { getEnvironment } from "@/lib/env";
import { binaryVersionOutput, isVersionInRange, parseVersion } from "../binary-version";
import type { CodingEngine, EngineModel, EngineStatus } from "../engine";
import { findEngineBinary, pinnedEngines } from "../engine-binaries";
import { getOpencodeServer } from "./opencode-server";
import { OpencodeSession } from "./opencode-session";

const label = "OpenCode";
/** The SDK (1.19.3) is tested against CLI 1.18.33; the server API moves between minors. */
const supported = { minimum: [1, 18, 0], belowMinor: [1, 19] } as const;
const supportedDescription = ">= 1.18.0 and < 1.19.0";

async function opencodeStatus(): Promise<EngineStatus> {
  const lookup = findEngineBinary("opencode");
  if (!lookup.found) {
    return {
      id: "opencode",
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
      id: "opencode",
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNAVAILABLE",
      binaryPath: lookup.path,
      reason: `${lookup.path} did not answer \`--version\` (${(error as Error).message.slice(0, 200)}). Run \`npm run engines:install\`.`,
    };
  }
  const version = parseVersion(output);
  if (!version || !isVersionInRange(version, supported.minimum, supported.belowMinor)) {
    return {
      id: "opencode",
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME",
      binaryPath: lookup.path,
      version: version?.join(".") ?? output.slice(0, 50),
      reason: `OpenCode ${version?.join(".") ?? "of an unknown version"} is installed; Patchwork drives OpenCode ${supportedDescription}. Run \`npm run engines:install\` (installs ${pinnedEngines.opencode.version}).`,
    };
  }
  return {
    id: "opencode",
    label,
    available: true,
    version: version.join("."),
    binaryPath: lookup.path,
  };
}

/** OpenCode is given the model as an OpenAI-compatible (chat completions) provider. */
function modelUnsupportedReason(model: EngineModel): string | null {
  if (
    model.provider === "compatible" ||
    model.provider === "openai" ||
    model.provider === "ollama"
  ) {
    return model.baseUrl ? null : "its provider has no base URL configured";
  }
  return "OpenCode is driven through an OpenAI-compatible chat completions endpoint (OpenAI, the OpenAI-compatible endpoint, or Ollama).";
}

/**
 * OpenCode (`opencode serve`, through `@opencode-ai/sdk`) as a Patchwork engine: one server per
 * model in this process, one session per run in the run's private folder.
 */
export const opencodeEngine: CodingEngine = {
  id: "opencode",
  label,
  workspaceForm: "folder",
  status: opencodeStatus,
  modelUnsupportedReason,
  models: {
    providers: ["compatible", "openai", "ollama"],
    requirement:
      "OpenCode is driven through an OpenAI-compatible chat completions endpoint (OpenAI, the OpenAI-compatible endpoint, or Ollama).",
  },
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
