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
 * Each engine's availability (the doctor behind GET /api/engines). External engines fail closed:
 * a missing binary says how to install it, and since their adapters are not built in this version,
 * an installed binary is still reported unavailable rather than half-driven.
 */
export function listEngines(): EngineStatus[] {
  const statuses: EngineStatus[] = [{ id: "native", label: "Patchwork agent", available: true }];
  for (const [id, engine] of Object.entries(externalEngines) as [
    Exclude<EngineName, "native">,
    (typeof externalEngines)[keyof typeof externalEngines],
  ][]) {
    const binary = findBinary(engine.binary);
    statuses.push({
      id,
      label: engine.label,
      available: false,
      reason: binary
        ? `${engine.label} was found at ${binary}, but this Patchwork version cannot drive it yet.`
        : `The ${engine.binary} binary is not installed on the server (${engine.install}).`,
    });
  }
  return statuses;
}

/** Refuses a run on an engine that cannot start, before any work is done. */
export async function preflightEngine(engine: string): Promise<void> {
  // The native agent is always available; looking through PATH for the external engines' binaries
  // on every run would cost a few file-system calls per directory for nothing.
  if (engine === "native") return;
  const status = listEngines().find((candidate) => candidate.id === engine);
  if (!status) {
    throw new PatchworkError("VALIDATION_FAILED", `Unknown engine "${engine}".`, {
      details: { engines: engineNames },
    });
  }
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
