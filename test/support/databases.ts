import { type DatabaseHandle, openDatabase } from "@/db/client";

export interface TestDatabase {
  name: "pglite" | "postgres";
  open(): Promise<DatabaseHandle>;
}

/**
 * The databases a store or API suite runs against: in-memory PGlite always, and the real
 * PostgreSQL named by TEST_DATABASE_URL (CI sets it; see .ci/run).
 */
export function testDatabases(): TestDatabase[] {
  const databases: TestDatabase[] = [{ name: "pglite", open: () => openDatabase({}) }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) databases.push({ name: "postgres", open: () => openDatabase({ url }) });
  return databases;
}
