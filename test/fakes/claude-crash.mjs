#!/usr/bin/env node
// A Claude Code stand-in that dies at start, before any session exists (after answering
// `--version`), counting its starts in $HOME/starts so a test can see the one retry.
import { appendFileSync } from "node:fs";
import path from "node:path";

if (process.argv.includes("--version")) {
  console.log("2.1.330 (Claude Code)");
  process.exit(0);
}
appendFileSync(path.join(process.env.HOME ?? ".", "starts"), "start\n");
process.stderr.write("fake claude: cannot open its session store\n");
process.exit(3);
