#!/usr/bin/env node
// Regenerates lib/agent/engines/codex/generated/ from the pinned Codex binary's own schema
// (`codex app-server generate-ts`). Run after moving the pin in scripts/engine-pins.json, then
// `npm run engines:install`. The output is committed: the adapter type-checks against exactly
// the protocol of the version it supports.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const pins = JSON.parse(
  (await import("node:fs")).readFileSync(path.join(root, "scripts/engine-pins.json"), "utf8"),
);
const binary =
  process.env.PATCHWORK_CODEX_BIN || path.join(root, ".engines/codex", pins.codex.binary);
const output = path.join(root, "lib/agent/engines/codex/generated");
const home = mkdtempSync(path.join(os.tmpdir(), "codex-types-"));
try {
  rmSync(output, { recursive: true, force: true });
  execFileSync(binary, ["app-server", "generate-ts", "--out", output], {
    env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home },
    stdio: "inherit",
  });
  const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
  console.log(`Generated ${output} from ${version}.`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
