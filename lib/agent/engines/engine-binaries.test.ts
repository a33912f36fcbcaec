import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findEngineBinary, pinnedEngines } from "./engine-binaries";

let root: string;

function executable(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "#!/bin/sh\necho 0\n");
  chmodSync(file, 0o755);
  return file;
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "patchwork-binaries-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("findEngineBinary", () => {
  it("prefers the environment variable, and never falls back when it points nowhere", () => {
    const fromEnvironment = executable(path.join(root, "custom", "codex"));
    executable(path.join(root, "bin", "codex"));
    expect(
      findEngineBinary("codex", {
        environment: { PATCHWORK_CODEX_BIN: fromEnvironment, PATH: path.join(root, "bin") },
        projectRoot: root,
      }),
    ).toEqual({ found: true, path: fromEnvironment, source: "environment" });
    const missing = findEngineBinary("codex", {
      environment: { PATCHWORK_CODEX_BIN: path.join(root, "nope"), PATH: path.join(root, "bin") },
      projectRoot: root,
    });
    expect(missing).toEqual({
      found: false,
      reason: expect.stringContaining("PATCHWORK_CODEX_BIN"),
    });
  });

  it("then the project's .engines install, then PATH, else says how to install", () => {
    const onPath = executable(path.join(root, "bin", "codex"));
    expect(
      findEngineBinary("codex", {
        environment: { PATH: path.join(root, "bin") },
        projectRoot: root,
      }),
    ).toEqual({
      found: true,
      path: onPath,
      source: "path",
    });
    const installed = executable(path.join(root, ".engines", "codex", pinnedEngines.codex.binary));
    expect(
      findEngineBinary("codex", {
        environment: { PATH: path.join(root, "bin") },
        projectRoot: root,
      }),
    ).toEqual({
      found: true,
      path: installed,
      source: "project",
    });
    const none = findEngineBinary("codex", {
      environment: { PATH: "" },
      projectRoot: path.join(root, "x"),
    });
    expect(none).toEqual({
      found: false,
      reason: expect.stringContaining("npm run engines:install"),
    });
  });
});
