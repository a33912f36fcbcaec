import { describe, expect, it } from "vitest";
import { DrizzlePGlite, drizzleTypeParsers } from "./pglite-client";

describe("DrizzlePGlite", () => {
  it("reads timestamps as text with or without drizzle's per-query parsers, in and out of transactions", async () => {
    const client = new DrizzlePGlite(undefined);
    try {
      const query = "select '2026-11-23 18:00:00+00'::timestamptz as at, 42::int as n";
      const expected = { at: "2026-11-23 18:00:00+00", n: 42 };
      expect((await client.query(query)).rows).toEqual([expected]);
      expect((await client.query(query, [], { parsers: drizzleTypeParsers })).rows).toEqual([
        expected,
      ]);
      const inTransaction = await client.transaction(async (transaction) => {
        expect(transaction.closed).toBe(false);
        return (await transaction.query(query, [], { parsers: drizzleTypeParsers })).rows;
      });
      expect(inTransaction).toEqual([expected]);
    } finally {
      await client.close();
    }
  });

  it("still applies parsers a query brings for other types", async () => {
    const client = new DrizzlePGlite(undefined);
    try {
      const { rows } = await client.query<{ n: string }>("select 42::int as n", [], {
        parsers: { ...drizzleTypeParsers, 23: (value: string) => `int:${value}` },
      });
      expect(rows).toEqual([{ n: "int:42" }]);
    } finally {
      await client.close();
    }
  });
});
