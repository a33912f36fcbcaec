import "server-only";
import {
  PGlite,
  type PGliteOptions,
  type QueryOptions,
  type Transaction,
  types,
} from "@electric-sql/pglite";

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
  constructor(dataDir: string | undefined, options: PGliteOptions = {}) {
    // PGlite reads a non-string first argument as the options, so the data dir goes inside them.
    super({ ...options, dataDir });
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
