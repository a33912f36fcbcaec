import "server-only";
import { binaryVersionOutput, isVersionInRange, parseVersion } from "./binary-version";
import type { EngineModel, EngineStatus } from "./engine";
import { findEngineBinary, pinnedEngines } from "./engine-binaries";

/** The versions an adapter drives: from `minimum` up to (not including) the `belowMinor` minor. */
export interface SupportedVersions {
  minimum: readonly [number, number, number];
  belowMinor: readonly [number, number];
}

/**
 * The status of an engine whose CLI is pinned in scripts/engine-pins.json: found (its variable,
 * `.engines/`, PATH), answering `--version`, and within the versions the adapter drives — else
 * unavailable or unsupported, with the fix.
 */
export async function pinnedEngineStatus(
  id: string,
  label: string,
  supported: SupportedVersions,
): Promise<EngineStatus> {
  const lookup = findEngineBinary(id);
  if (!lookup.found) {
    return {
      id,
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
      id,
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNAVAILABLE",
      binaryPath: lookup.path,
      reason: `${lookup.path} did not answer \`--version\` (${(error as Error).message.slice(0, 200)}). Run \`npm run engines:install\`.`,
    };
  }
  const version = parseVersion(output);
  if (!version || !isVersionInRange(version, supported.minimum, supported.belowMinor)) {
    const range = `>= ${supported.minimum.join(".")} and < ${supported.belowMinor.join(".")}.0`;
    return {
      id,
      label,
      available: false,
      code: "CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME",
      binaryPath: lookup.path,
      version: version?.join(".") ?? output.slice(0, 50),
      reason: `${label} ${version?.join(".") ?? "of an unknown version"} is installed; Patchwork drives ${label} ${range}. Run \`npm run engines:install\` (installs ${pinnedEngines[id]?.version}).`,
    };
  }
  return { id, label, available: true, version: version.join("."), binaryPath: lookup.path };
}

/** Why an engine that speaks only `providers` cannot use the model, or null when it can. */
export function providerMismatch(
  model: EngineModel,
  models: { providers: readonly EngineModel["provider"][]; requirement: string },
): string | null {
  if (!models.providers.includes(model.provider)) return models.requirement;
  return model.baseUrl ? null : "its provider has no base URL configured";
}
