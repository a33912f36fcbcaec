#!/usr/bin/env node
// Installs the pinned external engine CLIs from the npm registry into .engines/<engine>/ (git-ignored).
// The pins are data (scripts/engine-pins.json) so OpenCode and Claude Code are one entry each later.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const pins = JSON.parse(readFileSync(path.join(root, "scripts/engine-pins.json"), "utf8"));
const only = process.argv.slice(2);

for (const [engine, pin] of Object.entries(pins)) {
  if (only.length > 0 && !only.includes(engine)) continue;
  const directory = path.join(root, ".engines", engine);
  const binary = path.join(directory, pin.binary);
  const marker = path.join(directory, ".installed-version");
  if (
    existsSync(binary) &&
    existsSync(marker) &&
    readFileSync(marker, "utf8").trim() === pin.version
  ) {
    console.log(`${engine}: ${pin.package}@${pin.version} already installed`);
    continue;
  }
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    path.join(directory, "package.json"),
    `${JSON.stringify({ private: true }, null, 2)}\n`,
  );
  console.log(`${engine}: installing ${pin.package}@${pin.version} …`);
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--save-exact", `${pin.package}@${pin.version}`],
    { cwd: directory, stdio: "inherit" },
  );
  if (!existsSync(binary)) {
    console.error(
      `${engine}: installed, but ${pin.binary} is missing; check the pin's binary path.`,
    );
    process.exit(1);
  }
  writeFileSync(marker, `${pin.version}\n`);
  console.log(`${engine}: ready at ${path.relative(root, binary)}`);
}
