import "server-only";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getDatabaseHandle } from "@/db/client";
import { startRunRecovery } from "@/lib/agent/runs/run-recovery";
import { getEnvironment } from "@/lib/env";

/** Validates the environment and opens the database once per server process. */
export async function startServerProcess(): Promise<void> {
  await installConnectionGuard();
  getEnvironment();
  const handle = await getDatabaseHandle();
  console.log(`[patchwork] database ready (${handle.kind})`);
  await startRunRecovery(handle);
}

/**
 * Tags each request with its connection's addresses and refuses exposed connections without a
 * token. Loaded from disk, not bundled: the start script installs the same module before Next.
 */
async function installConnectionGuard(): Promise<void> {
  const guardPath = path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    "scripts",
    "connection-guard.mjs",
  );
  const guard = (await import(/*turbopackIgnore: true*/ pathToFileURL(guardPath).href)) as {
    installConnectionGuard(options: { onExposedListen?: (message: string) => void }): void;
  };
  guard.installConnectionGuard({});
}
