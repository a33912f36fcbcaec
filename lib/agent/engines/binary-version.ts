import "server-only";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** `<binary> --version` per binary path, so the engine menu does not spawn on every look. */
const versions = new Map<string, Promise<string>>();

export function binaryVersionOutput(binary: string): Promise<string> {
  let version = versions.get(binary);
  if (!version) {
    version = run(binary, ["--version"], {
      timeout: 15_000,
      env: { PATH: process.env.PATH } as unknown as NodeJS.ProcessEnv,
    }).then(({ stdout }) => stdout.trim());
    versions.set(binary, version);
    // A failure is not remembered: the next look asks again.
    version.catch(() => versions.delete(binary));
  }
  return version;
}

/** The first `major.minor.patch` in a version output, or null. */
export function parseVersion(output: string): [number, number, number] | null {
  const match = output.match(/(\d+)\.(\d+)\.(\d+)/);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** Whether `version` is at least `minimum` and below `belowMinor` (major, minor). */
export function isVersionInRange(
  version: readonly [number, number, number],
  minimum: readonly [number, number, number],
  belowMinor: readonly [number, number],
): boolean {
  const [major, minor, patch] = version;
  const atLeast =
    major > minimum[0] ||
    (major === minimum[0] && (minor > minimum[1] || (minor === minimum[1] && patch >= minimum[2])));
  const below = major < belowMinor[0] || (major === belowMinor[0] && minor < belowMinor[1]);
  return atLeast && below;
}
