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

describe("DrizzlePGlite's urgent lane", () => {
  it("runs urgent statements before statements that were waiting longer, and keeps a transaction's statements together", async () => {
    const client = new DrizzlePGlite(undefined);
    try {
      await client.exec("create table log (n serial primary key, name text)");
      const log = (name: string) => client.query("insert into log (name) values ($1)", [name]);
      let releaseTransaction!: () => void;
      const holding = new Promise<void>((resolve) => {
        releaseTransaction = resolve;
      });
      const transaction = client.transaction(async (inside) => {
        await inside.query("insert into log (name) values ('transaction start')");
        await holding;
        await inside.query("insert into log (name) values ('transaction end')");
      });
      const normal = [log("normal 1"), log("normal 2")];
      const urgent = client.runUrgent(() => log("urgent"));
      await new Promise((resolve) => setTimeout(resolve, 10));
      releaseTransaction();
      await Promise.all([transaction, ...normal, urgent]);
      const { rows } = await client.query<{ name: string }>("select name from log order by n");
      expect(rows.map((row) => row.name)).toEqual([
        "transaction start",
        "transaction end",
        "urgent",
        "normal 1",
        "normal 2",
      ]);
    } finally {
      await client.close();
    }
  });

  it("closes after the work holding it", async () => {
    const client = new DrizzlePGlite(undefined);
    const query = client.query<{ n: number }>("select 1 as n");
    await client.close();
    expect((await query).rows).toEqual([{ n: 1 }]);
    await expect(client.query("select 1")).rejects.toThrow();
  });
});
