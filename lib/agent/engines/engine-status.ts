import "server-only";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { EngineStatus } from "./engine";
import { findEngineBinary, pinnedEngines } from "./engine-binaries";
import type { EngineName } from "./engine-names";

const externalEngines: Record<
  Exclude<EngineName, "native">,
  { label: string; binary: string; install: string }
> = {
  opencode: { label: "OpenCode", binary: "opencode", install: "npm install -g opencode-ai" },
  codex: { label: "Codex", binary: "codex", install: "npm install -g @openai/codex" },
  "claude-code": {
    label: "Claude Code",
    binary: "claude",
    install: "npm install -g @anthropic-ai/claude-code",
  },
};

function findBinary(name: string): string | null {
  for (const directory of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!directory) continue;
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory; keep looking.
    }
  }
  return null;
}

/**
 * The status of an engine this build has no adapter for: a missing binary says how to install it,
 * and an installed one is still reported unavailable rather than half-driven.
 */
export function unbuiltEngineStatus(id: EngineName): EngineStatus {
  if (id === "native") return { id, label: "Patchwork agent", available: true };
  const engine = externalEngines[id];
  const lookup = pinnedEngines[id] ? findEngineBinary(id) : null;
  const binary = lookup ? (lookup.found ? lookup.path : null) : findBinary(engine.binary);
  return {
    id,
    label: engine.label,
    available: false,
    code: "CODING_AGENT_ENGINE_UNAVAILABLE",
    reason: binary
      ? `${engine.label} was found at ${binary}, but this Patchwork version cannot drive it yet.`
      : lookup && !lookup.found
        ? lookup.reason
        : `The ${engine.binary} binary is not installed on the server (${engine.install}).`,
  };
}
