import "server-only";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import { PatchworkError } from "@/lib/errors";

import { type EngineName, engineNames } from "./engine-names";

export { type EngineName, engineNames };

export interface EngineStatus {
  id: EngineName;
  label: string;
  available: boolean;
  reason?: string;
}

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
 * One engine's availability. External engines fail closed: a missing binary says how to install
 * it, and since their adapters are not built in this version, an installed binary is still
 * reported unavailable rather than half-driven. Only the asked engine is looked for on PATH.
 */
function engineStatus(id: EngineName): EngineStatus {
  if (id === "native") return { id, label: "Patchwork agent", available: true };
  const engine = externalEngines[id];
  const binary = findBinary(engine.binary);
  return {
    id,
    label: engine.label,
    available: false,
    reason: binary
      ? `${engine.label} was found at ${binary}, but this Patchwork version cannot drive it yet.`
      : `The ${engine.binary} binary is not installed on the server (${engine.install}).`,
  };
}

/** Every engine's availability (the doctor behind GET /api/engines). */
export function listEngines(): EngineStatus[] {
  return engineNames.map(engineStatus);
}

/** Refuses a run on an engine that cannot start, before any work is done. */
export async function preflightEngine(engine: string): Promise<void> {
  if (!(engineNames as readonly string[]).includes(engine)) {
    throw new PatchworkError("VALIDATION_FAILED", `Unknown engine "${engine}".`, {
      details: { engines: engineNames },
    });
  }
  const status = engineStatus(engine as EngineName);
  if (!status.available) {
    throw new PatchworkError(
      "CODING_AGENT_ENGINE_UNAVAILABLE",
      status.reason ?? `${status.label} is not available.`,
      {
        details: { engine },
      },
    );
  }
}
