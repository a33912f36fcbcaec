/**
 * `npm run doctor`: every engine (found? version? supported?), every model provider (configured?
 * reachable? models) and the database, each problem with its fix. GET /api/engines serves the
 * same engine data. Exits 1 when nothing can run an agent.
 */
import fs from "node:fs";
import path from "node:path";
import { listEngineStatuses } from "@/lib/agent/engines/registry";
import { getEnvironment } from "@/lib/env";
import { listModels } from "@/lib/models";

const ok = (text: string) => `  ✓ ${text}`;
const problem = (text: string) => `  ✗ ${text}`;

const environment = getEnvironment();

console.log("Engines");
for (const engine of await listEngineStatuses()) {
  const version = engine.version ? ` ${engine.version}` : "";
  console.log(
    engine.available
      ? ok(`${engine.label}${version}${engine.binaryPath ? ` (${engine.binaryPath})` : ""}`)
      : problem(`${engine.label}: ${engine.reason ?? "unavailable"}`),
  );
}

console.log(
  "\nModel providers (keyed providers are not called; compatible and Ollama are discovered)",
);
const models = await listModels();
const byProvider = new Map<string, typeof models>();
for (const model of models) {
  if (model.provider === "auto") continue;
  byProvider.set(model.provider, [...(byProvider.get(model.provider) ?? []), model]);
}
for (const [provider, entries] of byProvider) {
  const available = entries.filter((entry) => entry.available);
  if (available.length > 0) {
    console.log(ok(`${provider}: ${available.map((entry) => entry.id).join(", ")}`));
  } else {
    const reasons = [...new Set(entries.map((entry) => entry.reason).filter(Boolean))];
    console.log(problem(`${provider}: ${reasons.join("; ") || "no models"}`));
  }
}
const anyModel = models.some((model) => model.available && model.provider !== "auto");

console.log("\nDatabase");
let databaseOk = true;
if (environment.DATABASE_URL) {
  const { openDatabase } = await import("@/db/client");
  try {
    const handle = await openDatabase({ url: environment.DATABASE_URL });
    console.log(ok(`Postgres reachable, migrations applied (${handle.kind})`));
    await handle.close();
  } catch (error) {
    databaseOk = false;
    console.log(
      problem(
        `Postgres: ${(error as Error).message}. Check DATABASE_URL and that the server runs.`,
      ),
    );
  }
} else {
  // PGlite allows one process per data directory, so the doctor does not open a running server's.
  const directory = path.resolve(environment.PATCHWORK_DATA_DIR);
  console.log(
    fs.existsSync(directory)
      ? ok(`PGlite data directory ${directory}`)
      : ok(`PGlite data directory ${directory} (created on first start)`),
  );
}

if (!anyModel)
  console.log("\nNo model is available: set a provider key or OPENAI_COMPATIBLE_BASE_URL.");
process.exit(anyModel && databaseOk ? 0 : 1);
