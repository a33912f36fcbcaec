import { isVersionInRange, parseVersion } from "../binary-version";

/**
 * The Codex versions this adapter drives: the generated protocol types in `generated/` come from
 * 0.169.0, and app-server's protocol changes between minor versions (methods and fields are
 * renamed), so the range is the pinned minor. Moving it means regenerating the types
 * (`npm run engines:codex-types`) and running the Codex suites.
 */
export const supportedCodexRange = { minimum: [0, 169, 0], belowMinor: [0, 170] } as const;

/** The version in `codex --version` output ("codex-cli 0.169.0"), or null. */
export const parseCodexVersion = parseVersion;

export function isSupportedCodexVersion(version: readonly [number, number, number]): boolean {
  return isVersionInRange(version, supportedCodexRange.minimum, supportedCodexRange.belowMinor);
}
