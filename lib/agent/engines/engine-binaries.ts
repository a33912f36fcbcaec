import "server-only";
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import enginePins from "@/scripts/engine-pins.json";

/** What the look-up found: a path to run, or why there is none (with the fix). */
export type BinaryLookup =
  | { found: true; path: string; source: "environment" | "project" | "path" }
  | { found: false; reason: string };

interface EnginePin {
  package: string;
  version: string;
  binary: string;
  envVariable: string;
  command: string;
}

/** The pinned CLIs `npm run engines:install` puts into `.engines/` (scripts/engine-pins.json). */
export const pinnedEngines: Readonly<Record<string, EnginePin>> = enginePins;

/**
 * Finds an engine's binary: its PATCHWORK_…_BIN variable (set but missing → not found, no
 * fallback), then the project's `.engines/` install, then PATH.
 */
export function findEngineBinary(
  engine: string,
  options: { environment?: Record<string, string | undefined>; projectRoot?: string } = {},
): BinaryLookup {
  const environment = options.environment ?? process.env;
  const pin = pinnedEngines[engine];
  if (!pin) return { found: false, reason: `No pinned version of ${engine} is known.` };
  const configured = environment[pin.envVariable]?.trim();
  if (configured) {
    return isExecutable(configured)
      ? { found: true, path: configured, source: "environment" }
      : {
          found: false,
          reason: `${pin.envVariable} is set to ${configured}, which is not an executable file. Fix the path or unset ${pin.envVariable}.`,
        };
  }
  const projectBinary = path.join(
    options.projectRoot ?? process.cwd(),
    ".engines",
    engine,
    pin.binary,
  );
  if (isExecutable(projectBinary)) return { found: true, path: projectBinary, source: "project" };
  for (const directory of (environment.PATH ?? "").split(path.delimiter)) {
    if (!directory) continue;
    const candidate = path.join(directory, pin.command);
    if (isExecutable(candidate)) return { found: true, path: candidate, source: "path" };
  }
  return {
    found: false,
    reason: `The ${pin.command} binary was not found. Run \`npm run engines:install\` (installs ${pin.package}@${pin.version} into .engines/) or set ${pin.envVariable}.`,
  };
}

function isExecutable(file: string): boolean {
  try {
    if (!existsSync(file)) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
