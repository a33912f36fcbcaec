/**
 * The Codex versions this adapter drives: the generated protocol types in `generated/` come from
 * 0.169.0, and app-server's protocol changes between minor versions (methods and fields are
 * renamed), so the range is the pinned minor. Moving it means regenerating the types
 * (`npm run engines:codex-types`) and running the Codex suites.
 */
export const supportedCodexRange = { minimum: [0, 169, 0], belowMinor: [0, 170] } as const;
export const supportedCodexDescription = ">= 0.169.0 and < 0.170.0";

/** The version in `codex --version` output ("codex-cli 0.169.0"), or null. */
export function parseCodexVersion(output: string): [number, number, number] | null {
  const match = output.match(/(\d+)\.(\d+)\.(\d+)/);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export function isSupportedCodexVersion(version: readonly [number, number, number]): boolean {
  const [major, minor, patch] = version;
  const [minimumMajor, minimumMinor, minimumPatch] = supportedCodexRange.minimum;
  const [belowMajor, belowMinor] = supportedCodexRange.belowMinor;
  const atLeast =
    major > minimumMajor ||
    (major === minimumMajor &&
      (minor > minimumMinor || (minor === minimumMinor && patch >= minimumPatch)));
  const below = major < belowMajor || (major === belowMajor && minor < belowMinor);
  return atLeast && below;
}
