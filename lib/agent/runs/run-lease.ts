import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { type DatabaseHandle, perHandle } from "@/db/client";
import { renewRunLeases } from "@/db/queries/runs";
import { getEnvironment } from "@/lib/env";
import { logServerError } from "@/lib/log";

/**
 * Leases tell live runs from orphans across processes. The executing process owns a run's lease
 * (`lease_owner`, `lease_expires_at` on its row) and renews it every third of its length with an
 * ordinary statement on any pooled connection; anyone may reclaim a run whose lease expired. It
 * replaces session advisory locks held on one connection, whose silent loss on a reconnect let
 * another process's sweeper fail a run that was still alive.
 */

const ownerKey = Symbol.for("patchwork.leaseOwner");
type GlobalWithOwner = typeof globalThis & { [ownerKey]?: string };

/** This process's name on the leases it holds: host, pid and a random part (pids are reused). */
export function processLeaseOwner(): string {
  const holder = globalThis as GlobalWithOwner;
  holder[ownerKey] ??= `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  return holder[ownerKey];
}

export function leaseSeconds(): number {
  return getEnvironment().PATCHWORK_RUN_LEASE_S;
}

interface HeldLease {
  /** Called once when the lease turns out to be someone else's (the run was reclaimed). */
  onLost: () => void;
}

/** Renews the leases of the runs this process executes, and says when one was lost. */
export class LeaseKeeper {
  private readonly held = new Map<string, HeldLease>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly owner = processLeaseOwner(),
    private readonly seconds = leaseSeconds(),
  ) {}

  hold(runId: string, onLost: () => void): void {
    this.held.set(runId, { onLost });
    if (!this.timer) {
      this.timer = setInterval(() => void this.renew(), Math.max(250, (this.seconds * 1000) / 3));
      this.timer.unref();
    }
  }

  release(runId: string): void {
    this.held.delete(runId);
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** One heartbeat for every lease held; a lease not renewed belongs to nobody here any more. */
  renew(): Promise<void> {
    if (this.renewing) return this.renewing;
    this.renewing = this.renewOnce().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    const ids = [...this.held.keys()];
    if (ids.length === 0) return;
    let renewed: Set<string>;
    try {
      renewed = new Set(
        await renewRunLeases(this.handle.db, {
          ids,
          owner: this.owner,
          leaseSeconds: this.seconds,
        }),
      );
    } catch (error) {
      // The database is unreachable: keep executing and try again. If the lease runs out
      // meanwhile, a sweeper ends the run and the next renewal reports it lost.
      logServerError("could not renew run leases", error);
      return;
    }
    for (const id of ids) {
      const lease = this.held.get(id);
      if (!lease || renewed.has(id)) continue;
      this.held.delete(id);
      lease.onLost();
    }
  }
}

export function getLeaseKeeper(handle: DatabaseHandle): LeaseKeeper {
  return perHandle("leaseKeeper", handle, () => new LeaseKeeper(handle));
}
