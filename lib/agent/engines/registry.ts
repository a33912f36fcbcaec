import "server-only";
import { getEnvironment } from "@/lib/env";
import { PatchworkError } from "@/lib/errors";
import { logServerError } from "@/lib/log";
import type { ModelEndpoint } from "@/lib/models/engine-model";
import { claudeCodeEngine } from "./claude-code";
import { codexEngine } from "./codex";
import type { CodingEngine, EngineStatus } from "./engine";
import { type EngineName, engineNames } from "./engine-names";
import { unbuiltEngineStatus } from "./engine-status";
import { nativeEngine } from "./native";
import { opencodeEngine } from "./opencode";
import { scriptedTestEngine } from "./scripted-test";

/**
 * Every engine this build can drive, by id. Adding an engine is its folder plus one line here.
 * Engines listed in {@link engineNames} but absent here are shown as not available yet.
 */
const engines: Partial<Record<EngineName, CodingEngine>> = {
  native: nativeEngine,
  codex: codexEngine,
  opencode: opencodeEngine,
  "claude-code": claudeCodeEngine,
};

/** TEST-ONLY engines, served only while PATCHWORK_TEST_ENGINES=1 (never set it in production). */
const testEngines = new Map<string, CodingEngine>([[scriptedTestEngine.id, scriptedTestEngine]]);

function testEnginesEnabled(): boolean {
  return getEnvironment().PATCHWORK_TEST_ENGINES;
}

/** The engine with this id, or null when this build has none by that id. */
export function getEngine(id: string): CodingEngine | null {
  if (testEnginesEnabled() && testEngines.has(id)) return testEngines.get(id) ?? null;
  return (engines as Record<string, CodingEngine | undefined>)[id] ?? null;
}

/** The engines this build can drive (native first). */
export function listEngines(): CodingEngine[] {
  const registered = engineNames.flatMap((id) => (engines[id] ? [engines[id]] : []));
  return testEnginesEnabled() ? [...registered, ...testEngines.values()] : registered;
}

/** Every engine's status, registered or not (the data behind GET /api/engines and the doctor). */
export async function listEngineStatuses(): Promise<EngineStatus[]> {
  const known = await Promise.all(
    engineNames.map((id) => (engines[id] ? safeStatus(engines[id]) : unbuiltEngineStatus(id))),
  );
  if (!testEnginesEnabled()) return known;
  return [...known, ...(await Promise.all([...testEngines.values()].map(safeStatus)))];
}

async function safeStatus(engine: CodingEngine): Promise<EngineStatus> {
  try {
    const status = await engine.status();
    return engine.models ? { ...status, models: engine.models } : status;
  } catch (error) {
    return {
      id: engine.id,
      label: engine.label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNAVAILABLE",
      reason: `${engine.label} could not report its status: ${(error as Error).message}`,
    };
  }
}

/**
 * Refuses a run on an engine that cannot start, or cannot use the model, before any row is
 * written: unknown → VALIDATION_FAILED, missing → CODING_AGENT_ENGINE_UNAVAILABLE, wrong version
 * → CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME, model → CODING_AGENT_MODEL_UNAVAILABLE.
 */
export async function preflightEngine(id: string): Promise<CodingEngine> {
  if (!(engineNames as readonly string[]).includes(id) && !getEngine(id)) {
    throw new PatchworkError("VALIDATION_FAILED", `Unknown engine "${id.slice(0, 100)}".`, {
      details: { engines: engineNames },
    });
  }
  const engine = getEngine(id);
  const status = engine ? await safeStatus(engine) : unbuiltEngineStatus(id as EngineName);
  if (!engine || !status.available) {
    throw new PatchworkError(
      status.code ?? "CODING_AGENT_ENGINE_UNAVAILABLE",
      status.reason ?? `${status.label} is not available.`,
      { details: { engine: id } },
    );
  }
  return engine;
}

/** Refuses a model the engine cannot use (CODING_AGENT_MODEL_UNAVAILABLE with the reason). */
export function preflightEngineModel(engine: CodingEngine, model: ModelEndpoint): void {
  const reason = engine.modelUnsupportedReason(model);
  if (reason) {
    throw new PatchworkError(
      "CODING_AGENT_MODEL_UNAVAILABLE",
      `${engine.label} cannot use ${model.id}: ${reason}`,
      { details: { engine: engine.id, model_id: model.id, reason } },
    );
  }
}

/** Removes every engine's stored state for a deleted app (never throws: the app is gone anyway). */
export async function removeEngineStateForApp(appId: string): Promise<void> {
  await Promise.all(
    listEngines().map(async (engine) => {
      try {
        await engine.removeAppState?.(appId);
      } catch (error) {
        logServerError(
          `${engine.label}: could not remove the state of deleted app ${appId}`,
          error,
        );
      }
    }),
  );
}
