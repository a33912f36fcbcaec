import "server-only";
import { getDatabaseHandle } from "@/db/client";
import { startRunRecovery } from "@/lib/agent/runs/run-recovery";
import { getEnvironment } from "@/lib/env";

/** Validates the environment and opens the database once per server process. */
export async function startServerProcess(): Promise<void> {
  getEnvironment();
  const handle = await getDatabaseHandle();
  console.log(`[patchwork] database ready (${handle.kind})`);
  await startRunRecovery(handle);
}
