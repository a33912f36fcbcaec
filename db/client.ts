import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { DrizzlePGlite } from "./pglite-client";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The drizzle database both drivers offer; queries are written once against it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A database or an open transaction: named queries accept either. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface DatabaseHandle {
  kind: "pglite" | "postgres";
  db: Database;
  /** The postgres:// URL (Postgres only), for processes that need a connection of their own. */
  url?: string;
  /** The raw postgres.js client (Postgres only), for LISTEN/NOTIFY. */
  postgresClient?: postgres.Sql;
  /**
   * Runs `work` where the database's other work cannot hold it up: for the writes a person is
   * watching happen (a run's stream), which must not queue behind other runs' setup. PGlite gives
   * its statements the urgent lane of its lock; Postgres gives them connections of their own.
   */
  urgent<T>(work: (db: Database) => Promise<T>): Promise<T>;
  /** How many `urgent` statements can run at once; more would only wait in the driver. */
  urgentConnections: number;
  /** Work to finish before the database closes (e.g. stopping this process's run workers). */
  onClose(work: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; absent means embedded PGlite. */
  url?: string;
  /** PGlite data directory; absent means in memory (tests). */
  dataDir?: string;
}

const migrationsFolder = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");
// Any fixed number works; it only has to be the same in every Patchwork process.
const migrationLockKey = 727_001;

/** Opens a database and applies the committed migrations before anyone can query it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const migrationClient = postgres(options.url, { max: 1, onnotice: () => {} });
    try {
      // Two processes starting at once must not run the same migration twice.
      await migrationClient`select pg_advisory_lock(${migrationLockKey})`;
      await migratePostgres(drizzlePostgres(migrationClient), { migrationsFolder });
      // The run queue's own schema (graphile-worker), so any process can enqueue from the start.
      const { runMigrations, Logger } = await import("graphile-worker");
      await runMigrations({
        connectionString: options.url,
        logger: new Logger(() => () => {}),
        noHandleSignals: true,
      });
      await migrationClient`select pg_advisory_unlock(${migrationLockKey})`;
    } finally {
      await migrationClient.end();
    }
    // Named per process and pool, so an operator (or a test) can tell whose backend is whose in
    // pg_stat_activity.
    const client = postgres(options.url, {
      max: 10,
      onnotice: () => {},
      connection: { application_name: `patchwork:${process.pid}:main` },
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Database;
    // A few, so a turn's stream write need not wait for earlier turns' to come back: under load
    // a write's round trip spans several turns (two measured slower than the shared ten).
    const urgentConnections = 4;
    const urgentClient = postgres(options.url, {
      max: urgentConnections,
      onnotice: () => {},
      connection: { application_name: `patchwork:${process.pid}:urgent` },
    });
    const urgentDb = drizzlePostgres(urgentClient, { schema }) as unknown as Database;
    const closing = closeHooks();
    return {
      kind: "postgres",
      db,
      url: options.url,
      postgresClient: client,
      urgent: (work) => work(urgentDb),
      urgentConnections,
      onClose: closing.add,
      close: async () => {
        await closing.run();
        await Promise.all([client.end(), urgentClient.end()]);
      },
    };
  }
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  const client = new DrizzlePGlite(options.dataDir);
  const pgliteDb = drizzlePglite(client, { schema });
  await migratePglite(pgliteDb, { migrationsFolder });
  const db = pgliteDb as unknown as Database;
  const closing = closeHooks();
  return {
    kind: "pglite",
    db,
    urgent: (work) => client.runUrgent(() => work(db)),
    // PGlite runs one statement at a time.
    urgentConnections: 1,
    onClose: closing.add,
    close: async () => {
      await closing.run();
      await client.close();
    },
  };
}

function closeHooks() {
  const hooks: (() => Promise<void>)[] = [];
  return {
    add: (work: () => Promise<void>) => {
      hooks.push(work);
    },
    run: async () => {
      await Promise.allSettled(hooks.splice(0).map((work) => work()));
    },
  };
}

const globalKey = Symbol.for("patchwork.database");
type GlobalWithDatabase = typeof globalThis & { [globalKey]?: Promise<DatabaseHandle> };

/**
 * The process-wide database. Next.js may load this module more than once (route bundles,
 * instrumentation), and PGlite allows one instance per data dir, so the handle lives on globalThis.
 */
export function getDatabaseHandle(): Promise<DatabaseHandle> {
  const holder = globalThis as GlobalWithDatabase;
  if (!holder[globalKey]) {
    const url = process.env.DATABASE_URL || undefined;
    const dataDir = path.resolve(
      /*turbopackIgnore: true*/ process.env.PATCHWORK_DATA_DIR || ".data",
    );
    holder[globalKey] = openDatabase(url ? { url } : { dataDir }).catch((error) => {
      holder[globalKey] = undefined;
      throw error;
    });
  }
  return holder[globalKey];
}

export async function getDatabase(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

/**
 * One `T` per database handle for the whole process. Next.js may load a module more than once
 * (route bundles, instrumentation), and a module-level map would give each copy its own — a run
 * executed from one copy would then publish on a bus the streams of another never hear.
 */
export function perHandle<T>(name: string, handle: DatabaseHandle, create: () => T): T {
  const key = Symbol.for(`patchwork.perHandle.${name}`);
  const holder = globalThis as typeof globalThis & {
    [key: symbol]: WeakMap<DatabaseHandle, T> | undefined;
  };
  holder[key] ??= new WeakMap();
  const map = holder[key];
  let value = map.get(handle);
  if (value === undefined) {
    value = create();
    map.set(handle, value);
  }
  return value;
}
