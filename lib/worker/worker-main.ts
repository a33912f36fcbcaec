import "server-only";
import { startRunWorker, stopRunWorker } from "@/lib/agent/runs/run-dispatcher";
import { localExecutions } from "@/lib/agent/runs/run-executor";
import { getEnvironment } from "@/lib/env";
import { startRunProcess } from "@/lib/server-startup";

/** How long a stopping worker lets its runs finish before leaving them to be reclaimed. */
const stopGraceMs = 30_000;

/**
 * `npm run worker`: executes queued runs and serves nothing. Needs Postgres (DATABASE_URL): with
 * PGlite the web process executes every run itself.
 */
export async function main(): Promise<void> {
  process.env.PATCHWORK_ROLE = "worker";
  if (!process.env.DATABASE_URL) {
    console.error(
      "npm run worker needs DATABASE_URL (a PostgreSQL database shared with the web processes). Without it, `npm start` executes runs itself.",
    );
    process.exit(1);
  }
  const handle = await startRunProcess();
  await startRunWorker(handle);
  console.log(
    `[patchwork] worker ${process.pid} executing runs, ${getEnvironment().PATCHWORK_WORKER_CONCURRENCY} at a time`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[patchwork] worker ${process.pid} stopping (${signal}); taking no new runs`);
    const running = [...localExecutions().values()].map((execution) => execution.done);
    const grace = new Promise((resolve) => setTimeout(resolve, stopGraceMs).unref());
    await Promise.race([Promise.all(running), grace]);
    await Promise.race([stopRunWorker(handle), grace]);
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
