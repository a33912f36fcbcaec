/**
 * `npm run doctor`: every engine (found? version? supported?), every model provider (configured?
 * reachable? models) and the database, each problem with its fix. GET /api/engines serves the
 * same engine data. Exits 1 when nothing can run an agent.
 */
import fs from "node:fs";
import path from "node:path";
import { listEngineStatuses } from "@/lib/agent/engines/registry";
import { getEnvironment } from "@/lib/env";
import { listModels, refreshProviderSettings } from "@/lib/models";
import { checkKeyedProviders } from "@/lib/models/provider-reachability";

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

console.log("\nModel providers");
// Keyed providers are asked for their model list (it spends nothing), so a wrong key or base URL
// shows here rather than as a failed run.
// Providers saved from the settings page live in the database. Embedded PGlite belongs to the
// server process while it runs (a second opener could damage it), so only Postgres is read here.
if (getEnvironment().DATABASE_URL) await refreshProviderSettings();
const [keyedChecks, models] = await Promise.all([checkKeyedProviders(), listModels()]);
const modelIds = (provider: string) =>
  models
    .filter((model) => model.provider === provider && model.available)
    .map((model) => model.id)
    .join(", ");
for (const check of keyedChecks) {
  if (check.state === "no_key")
    console.log(`  - ${check.displayName}: not configured (${check.fix})`);
  else if (check.state === "reachable")
    console.log(
      ok(`${check.displayName}: key accepted by ${check.endpoint}; ${modelIds(check.provider)}`),
    );
  else
    console.log(problem(`${check.displayName}: ${check.endpoint} ${check.problem}. ${check.fix}`));
}
// Compatible endpoints and Ollama are discovered by listModels itself.
const keyedProviders = new Set(keyedChecks.map((check) => check.provider));
for (const provider of new Set(models.map((model) => model.provider))) {
  if (provider === "auto" || keyedProviders.has(provider)) continue;
  const entries = models.filter((model) => model.provider === provider);
  const available = entries.filter((entry) => entry.available);
  if (available.length > 0) {
    console.log(ok(`${provider}: ${available.map((entry) => entry.id).join(", ")}`));
  } else {
    const reasons = [...new Set(entries.map((entry) => entry.reason).filter(Boolean))];
    console.log(problem(`${provider}: ${reasons.join("; ") || "no models"}`));
  }
}
const anyModel =
  models.some(
    (model) => model.available && model.provider !== "auto" && !keyedProviders.has(model.provider),
  ) || keyedChecks.some((check) => check.state === "reachable");

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
