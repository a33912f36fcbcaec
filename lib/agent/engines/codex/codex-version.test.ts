import { describe, expect, it } from "vitest";
import { isSupportedCodexVersion, parseCodexVersion } from "./codex-version";

describe("the Codex version gate", () => {
  it("reads the version from codex --version", () => {
    expect(parseCodexVersion("codex-cli 0.169.0\n")).toEqual([0, 169, 0]);
    expect(parseCodexVersion("codex-cli 0.169.12-alpha.1")).toEqual([0, 169, 12]);
    expect(parseCodexVersion("command not found")).toBeNull();
  });

  it.each([
    [[0, 169, 0], true],
    [[0, 169, 7], true],
    [[0, 168, 9], false],
    [[0, 170, 0], false],
    [[1, 0, 0], false],
  ] as const)("%j supported: %s", (version, supported) => {
    expect(isSupportedCodexVersion(version)).toBe(supported);
  });
});
