import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import {
  PGlite,
  type PGliteOptions,
  type QueryOptions,
  type Transaction,
  types,
} from "@electric-sql/pglite";
import { PriorityLock } from "./priority-lock";

const asText = (value: string) => value;

/**
 * The type parsers drizzle hands PGlite with every query: dates, timestamps and intervals stay the
 * text Postgres sent, which drizzle's column types then map themselves (as postgres.js does).
 */
export const drizzleTypeParsers: Record<number, (value: string) => string> = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

/**
 * PGlite as drizzle drives it, without paying for drizzle's type parsers on every query. PGlite
 * merges per-query parsers into its ~300 defaults on every call (`{...defaults, ...parsers}`),
 * which measured 130–310 µs of a 370–700 µs insert. Drizzle always sends the same ones, so this
 * client keeps them on the instance instead (every query, drizzle's or not, reads those types as
 * text) and drops the per-query copy, in and out of transactions. A query bringing parsers for
 * any other type is left as it is.
 */
export class DrizzlePGlite extends PGlite {
  /** Takes the place of PGlite's own first-come lock on statements and transactions. */
  private readonly lock = new PriorityLock();
  /** Set while work started by `runUrgent` runs: its statements take the urgent lane. */
  private readonly urgentWork = new AsyncLocalStorage<true>();

  constructor(dataDir: string | undefined, options: PGliteOptions = {}) {
    // PGlite reads a non-string first argument as the options, so the data dir goes inside them.
    super({ ...options, dataDir });
  }

  /**
   * Runs `work` with its statements ahead of any other work waiting for the database: for the
   * writes a person is watching happen (a run's stream), which must not queue behind other runs'
   * setup. See PriorityLock for why the lock also yields to the event loop between holders.
   */
  runUrgent<T>(work: () => Promise<T>): Promise<T> {
    return this.urgentWork.run(true, work);
  }

  /**
   * Every statement, `exec` and transaction of PGlite takes this lock (it is the hook PGlite's
   * base class leaves for it); a transaction holds it from BEGIN to COMMIT.
   */
  override _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T> {
    return this.lock.run(work, this.urgentWork.getStore() ? "urgent" : "normal");
  }

  /**
   * Closes after the work already asked for, as PGlite's own close waits for its lock. Statements
   * wait for PGlite to be ready before they ask for the lock, so close does too, or it would
   * overtake a statement sent before it while PGlite was still starting.
   */
  override async close(): Promise<void> {
    await this._checkReady();
    return this.lock.run(() => super.close());
  }

  override query<T>(query: string, params?: unknown[], options?: QueryOptions) {
    return super.query<T>(query, params, this.withoutDrizzleParsers(options));
  }

  override transaction<T>(callback: (transaction: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((transaction) =>
      callback(
        new Proxy(transaction, {
          get: (target, property, receiver) => {
            if (property !== "query") return Reflect.get(target, property, receiver);
            return <Row>(query: string, params?: unknown[], options?: QueryOptions) =>
              target.query<Row>(query, params, this.withoutDrizzleParsers(options));
          },
        }),
      ),
    );
  }

  private withoutDrizzleParsers(options: QueryOptions | undefined): QueryOptions | undefined {
    // PGlite installs its own array parsers once it has started (and again when asked to); ours
    // go back on top before every query, so every query reads these types the same way.
    for (const type in drizzleTypeParsers) {
      if (this.parsers[type] !== drizzleTypeParsers[type]) {
        this.parsers[type] = drizzleTypeParsers[type];
      }
    }
    const parsers = options?.parsers;
    if (!parsers) return options;
    for (const type in parsers) if (!(type in drizzleTypeParsers)) return options;
    const { parsers: _dropped, ...rest } = options;
    return rest;
  }
}
