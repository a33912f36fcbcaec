#!/usr/bin/env node
// `npm run worker`: starts a process that executes queued runs (see lib/worker/worker-main.ts).
// `npm run build` bundles it next to Next's output; run the build first, as for `npm start`.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const bundle = path.resolve(
  process.env.PATCHWORK_DIST_DIR || ".next",
  "patchwork-worker",
  "worker.mjs",
);
if (!existsSync(bundle)) {
  console.error(`The worker is not built (${bundle} is missing): run \`npm run build\` first.`);
  process.exit(1);
}
const { main } = await import(pathToFileURL(bundle).href);
await main();
