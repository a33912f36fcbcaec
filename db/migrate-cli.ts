/**
 * Applies the committed migrations to DATABASE_URL (or the PGlite data dir) and exits. The server
 * also applies them when it opens the database; this is for deploy scripts and CI.
 */
import path from "node:path";
import { openDatabase } from "./client";

const url = process.env.DATABASE_URL || undefined;
const handle = await openDatabase(
  url ? { url } : { dataDir: path.resolve(process.env.PATCHWORK_DATA_DIR || ".data") },
);
console.log(`Migrations applied (${handle.kind}).`);
await handle.close();
