/**
 * Every benchmark in one run (npm run bench). Each prints its own table with its baseline.
 * The stream benchmark needs a production build (npm run build) and is skipped with a message
 * when there is none.
 */
import fs from "node:fs";
import { runEnginesBench } from "./engines.bench";
import { runPatchBench } from "./patch.bench";
import { runPreviewBench } from "./preview.bench";
import { runStoreBench } from "./store.bench";
import { runStreamBench } from "./stream.bench";
import { runWorkersBench } from "./workers.bench";

await runPatchBench();
await runStoreBench();
await runPreviewBench();
if (fs.existsSync(`${process.env.PATCHWORK_DIST_DIR || ".next"}/BUILD_ID`)) {
  await runStreamBench();
  await runWorkersBench();
  await runEnginesBench();
} else {
  console.log(
    "\nStream and engines benchmarks skipped: it serves the production build; run `npm run build` first.",
  );
}
