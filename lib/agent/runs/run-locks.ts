import "server-only";
import postgres from "postgres";
import type { DatabaseHandle } from "@/db/client";

// Advisory-lock namespace for runs; the second key is hashtext(run id).
const runLockNamespace = 727_002;

/**
 * Tells live runs from orphans across processes. On Postgres, the executing process holds a
 * session advisory lock per run on its own connection; if the process dies, the connection drops
 * and Postgres releases the lock — so a lock anyone can take means nobody is running that run.
 * PGlite is one process per data dir, so there every run not executing here is an orphan.
 */
export interface RunLocks {
  acquire(runId: string): Promise<void>;
  release(runId: string): Promise<void>;
  /** True when no live process holds the run's lock. Never call it for runs executing here. */
  isOrphaned(runId: string): Promise<boolean>;
  close(): Promise<void>;
}

class PostgresRunLocks implements RunLocks {
  private readonly client: postgres.Sql;

  constructor(url: string) {
    this.client = postgres(url, { max: 1, idle_timeout: 0, onnotice: () => {} });
  }

  async acquire(runId: string): Promise<void> {
    await this.client`select pg_advisory_lock(${runLockNamespace}, hashtext(${runId}))`;
  }

  async release(runId: string): Promise<void> {
    await this.client`select pg_advisory_unlock(${runLockNamespace}, hashtext(${runId}))`;
  }

  async isOrphaned(runId: string): Promise<boolean> {
    const [row] = await this.client<{ taken: boolean }[]>`
      select pg_try_advisory_lock(${runLockNamespace}, hashtext(${runId})) as taken`;
    if (!row.taken) return false;
    await this.release(runId);
    return true;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

const singleProcessLocks: RunLocks = {
  acquire: async () => {},
  release: async () => {},
  isOrphaned: async () => true,
  close: async () => {},
};

const locksByHandle = new WeakMap<DatabaseHandle, RunLocks>();

export function getRunLocks(handle: DatabaseHandle): RunLocks {
  let locks = locksByHandle.get(handle);
  if (!locks) {
    locks = handle.url ? new PostgresRunLocks(handle.url) : singleProcessLocks;
    locksByHandle.set(handle, locks);
  }
  return locks;
}
