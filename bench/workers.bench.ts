/**
 * Runs on workers (issue 17), on Postgres (BENCH_DATABASE_URL): one web process that only serves
 * and one worker process that only executes, as a team running workers deploys Patchwork.
 *
 * 1. Scale: k concurrent paced runs (2,000 deltas about 1 ms apart each) for k = 1, 2, 4 … 32 on
 *    the one worker; per-delta latency at the SSE client (client has it − the model's chunk at the
 *    recording proxy), its p99 against k = 1's — the baseline — and the worker's memory per run
 *    (peak RSS during the level over its RSS before, divided by k). Reported: the largest k whose
 *    p99 stays under twice the baseline's.
 * 2. Soak: 200 short runs (the happy path: read, patch, summary; an app each) one after another;
 *    the worker's RSS after the first 20 and after all 200.
 *
 * Needs a production build (`npm run build`) and BENCH_DATABASE_URL (a database it may fill).
 * Run: npm run bench:workers
 */
import fs from "node:fs";
import { modelServerEnvironment } from "@/test/model-server";
import {
  api,
  type PatchworkServer,
  type PatchworkWorker,
  startPatchworkServer,
  startPatchworkWorker,
} from "@/test/support/patchwork-server";
import { startRecordingProxy } from "@/test/support/recording-proxy";
import { collectRun } from "@/test/support/sse-client";
import { measurePatchwork, startModelProcess } from "./stream.bench";
import { formatBytes, formatMs, median, percentile, printTable } from "./table";

const levels = process.env.BENCH_WORKER_LEVELS
  ? process.env.BENCH_WORKER_LEVELS.split(",").map(Number)
  : [1, 2, 4, 8, 16, 32];
const soakRuns = Number(process.env.BENCH_SOAK_RUNS || 200);
/** After how many soak runs the worker's RSS is read. */
const soakSamples = [20, 50, 100, 150, 200, 400, 600, 800, 1000];

/** The resident set of a process, from /proc (Linux). */
function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kilobytes * 1024;
}

async function createApps(server: PatchworkServer, count: number, label: string) {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const created = await api(server, "/api/apps", {
      method: "POST",
      body: { name: `${label} ${index}` },
    });
    ids.push(created.body.app.id);
  }
  return ids;
}

export async function runWorkersBench(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) {
    console.log("\nWorkers benchmark skipped: it needs Postgres; set BENCH_DATABASE_URL.");
    return;
  }
  const maximum = Math.max(...levels);
  const names = Array.from({ length: maximum }, (_, index) => `bench-paced-${index}`);
  const modelServer = await startModelProcess(names);
  const proxy = await startRecordingProxy({ target: modelServer.url });
  const env = {
    ...modelServerEnvironment(proxy.url, [...names, "happy-path"]),
    DATABASE_URL: databaseUrl,
    PATCHWORK_WORKER_CONCURRENCY: String(maximum),
    APPS_CODING_AGENT_AUTO_VERIFY: "0",
  };
  let web: PatchworkServer | null = null;
  let worker: PatchworkWorker | null = null;
  const scaleRows: Record<string, string | number>[] = [];
  const soakRows: Record<string, string | number>[] = [];
  let sustained = 0;
  try {
    web = await startPatchworkServer({ env: { ...env, PATCHWORK_ROLE: "web" } });
    // BENCH_WORKER_NODE_OPTIONS: e.g. a small --max-old-space-size, to tell a leak (the worker
    // runs out) from a heap V8 simply has not collected yet (RSS stays under the cap).
    worker = await startPatchworkWorker({
      env: { ...env, NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS },
    });
    const workerPid = worker.process.pid!;
    const apps = await createApps(web, maximum, "Workers bench");
    // Unmeasured: warms the routes, the provider client and both processes' connections.
    await measurePatchwork(web, proxy, apps.slice(0, 1), "bench-paced");
    let baselineP99 = 0;
    for (const runs of levels) {
      const before = residentBytes(workerPid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, residentBytes(workerPid));
      }, 50);
      const measured = await measurePatchwork(web, proxy, apps.slice(0, runs), "bench-paced");
      clearInterval(sampler);
      const p99 = percentile(measured.latencyMs, 0.99);
      if (runs === 1) baselineP99 = p99;
      const ratio = p99 / baselineP99;
      if (ratio < 2 && sustained === runs / 2) sustained = runs;
      if (runs === 1) sustained = 1;
      scaleRows.push({
        "runs at once": runs,
        "latency p50 ms": formatMs(median(measured.latencyMs)),
        "latency p99 ms": formatMs(p99),
        "p99 over 1 run": `${ratio.toFixed(2)}×`,
        "deltas lost": measured.lost,
        "worker RSS before": formatBytes(before),
        "worker RSS peak": formatBytes(peak),
        "memory per run": formatBytes(Math.max(0, peak - before) / runs),
      });
    }

    // Soak: short runs one after another; the worker's memory must not grow with them.
    let afterWarmUp = 0;
    const soakCurve: string[] = [];
    const startedAt = performance.now();
    for (let index = 0; index < soakRuns; index += 1) {
      // An app each: the happy path edits the starter, which a second run would find changed.
      const soakApp = (await createApps(web, 1, `Soak ${index}`))[0];
      const created = await api(web, `/api/apps/${soakApp}/coding-agent/runs`, {
        method: "POST",
        body: { input: `Soak run ${index}`, model_id: "compatible:happy-path" },
      });
      if (created.status !== 201)
        throw new Error(`Soak run ${index} answered ${created.status}`);
      const { events } = await collectRun(web, soakApp, created.body.run.id);
      if (events.at(-1)?.type !== "run.completed")
        throw new Error(`Soak run ${index} ended with ${events.at(-1)?.type}`);
      if (index === 19) afterWarmUp = residentBytes(workerPid);
      if (soakSamples.includes(index + 1))
        soakCurve.push(`${index + 1}: ${formatBytes(residentBytes(workerPid))}`);
    }
    const end = residentBytes(workerPid);
    soakRows.push({
      runs: soakRuns,
      "seconds total": ((performance.now() - startedAt) / 1000).toFixed(1),
      "worker RSS after 20": formatBytes(afterWarmUp),
      [`worker RSS after ${soakRuns}`]: formatBytes(end),
      growth: `${(((end - afterWarmUp) / afterWarmUp) * 100).toFixed(1)} %`,
      "RSS along the way": soakCurve.join(", "),
    });
  } catch (error) {
    console.error(`web output:\n${web?.output().slice(-3_000)}`);
    console.error(`worker output:\n${worker?.output().slice(-3_000)}`);
    throw error;
  } finally {
    await worker?.stop();
    await web?.stop();
    await proxy.close();
    await modelServer.stop();
  }
  printTable(
    "Runs on one worker process (Postgres, web and worker split), paced runs at once; baseline = 1 run",
    scaleRows,
  );
  console.log(
    `Runs per worker process before the p99 latency doubles over one run's: ${sustained}${sustained === Math.max(...levels) ? " (the most measured)" : ""}.`,
  );
  printTable("Soak: short runs one after another on one worker", soakRows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runWorkersBench();
}
