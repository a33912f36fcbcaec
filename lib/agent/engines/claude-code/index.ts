import "server-only";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { getEnvironment } from "@/lib/env";
import { binaryVersionOutput, parseVersion } from "../binary-version";
import type { CodingEngine, EngineStatus } from "../engine";
import { providerMismatch } from "../pinned-engine-status";
import { runClaudeTurn } from "./claude-session";

const label = "Claude Code";

/**
 * The Claude Code executable: PATCHWORK_CLAUDE_BIN (set but missing → unavailable, no fallback),
 * else the one the agent SDK ships for this platform (a native binary; it runs on Node 20, which
 * the bare npm CLI from 2.1.198 on does not).
 */
function findClaudeBinary(): { found: true; path: string } | { found: false; reason: string } {
  const configured = process.env.PATCHWORK_CLAUDE_BIN?.trim();
  if (configured) {
    return existsSync(configured)
      ? { found: true, path: configured }
      : {
          found: false,
          reason: `PATCHWORK_CLAUDE_BIN is set to ${configured}, which is not an executable file. Fix the path or unset PATCHWORK_CLAUDE_BIN.`,
        };
  }
  try {
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const manifest = require.resolve(
      `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/package.json`,
    );
    const binary = path.join(path.dirname(manifest), "claude");
    if (existsSync(binary)) return { found: true, path: binary };
  } catch {
    // The platform package is not installed.
  }
  return {
    found: false,
    reason: `The Claude Code binary for ${process.platform}-${process.arch} was not found. Run \`npm install\` (it comes with @anthropic-ai/claude-agent-sdk) or set PATCHWORK_CLAUDE_BIN.`,
  };
}

async function claudeStatus(): Promise<EngineStatus> {
  const lookup = findClaudeBinary();
  if (!lookup.found) {
    return {
      id: "claude-code",
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNAVAILABLE",
      reason: lookup.reason,
    };
  }
  try {
    const version = parseVersion(await binaryVersionOutput(lookup.path));
    return {
      id: "claude-code",
      label,
      available: true,
      binaryPath: lookup.path,
      ...(version ? { version: version.join(".") } : {}),
    };
  } catch (error) {
    return {
      id: "claude-code",
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNAVAILABLE",
      binaryPath: lookup.path,
      reason: `${lookup.path} did not answer \`--version\` (${(error as Error).message.slice(0, 200)}).`,
    };
  }
}

const claudeModels = {
  providers: ["anthropic"],
  requirement:
    "Claude Code speaks the Anthropic Messages API: choose an Anthropic model (ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL for another endpoint).",
} as const;

/** Claude Code (through @anthropic-ai/claude-agent-sdk) as a Patchwork engine. */
export const claudeCodeEngine: CodingEngine = {
  id: "claude-code",
  label,
  workspaceForm: "folder",
  status: claudeStatus,
  modelUnsupportedReason: (model) => providerMismatch(model, claudeModels),
  models: claudeModels,
  async run(input, sink) {
    if (input.workspace.form !== "folder") throw new Error("Claude Code works in a folder");
    const status = await claudeStatus();
    if (!status.available) {
      throw new RunFailure(
        status.code ?? "CODING_AGENT_ENGINE_UNAVAILABLE",
        status.reason ?? "Claude Code is not available.",
      );
    }
    return runClaudeTurn({
      input,
      sink,
      binary: status.binaryPath,
      home: path.resolve(
        getEnvironment().PATCHWORK_DATA_DIR,
        "engines",
        "claude-code",
        input.run.appId.replace(/[^a-zA-Z0-9-]/g, ""),
      ),
    });
  },
  async removeAppState(appId) {
    const { rm } = await import("node:fs/promises");
    await rm(
      path.resolve(
        getEnvironment().PATCHWORK_DATA_DIR,
        "engines",
        "claude-code",
        appId.replace(/[^a-zA-Z0-9-]/g, ""),
      ),
      {
        recursive: true,
        force: true,
      },
    );
  },
};
