/**
 * `npm run dev:model [-- --port 4010] [--scenario-dir DIR]`: starts the scripted model server
 * so the builder can be tried without an API key. A developer tool, not a product mode.
 */
import { parseArgs } from "node:util";
import { startModelServer } from "./model-server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    "scenario-dir": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log(
    "Usage: npm run dev:model -- [--port 4010] [--scenario-dir DIR]\n" +
      "Serves scripted OpenAI-compatible models on 127.0.0.1 for trying Patchwork without a key.",
  );
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number (0 for any free port), not "${values.port}".`);
  process.exit(2);
}

const server = await startModelServer({
  port,
  scenarioDir: values["scenario-dir"],
  log: (line) => console.log(`  ${new Date().toISOString().slice(11, 23)}  ${line}`),
});

console.log(`Scripted model server (a developer tool, not a product mode) on ${server.url}
Scenarios: ${server.scenarioNames.join(", ")}

Add these to .env.local (or export them) and restart \`npm run dev\`:

OPENAI_COMPATIBLE_BASE_URL=${server.url}
OPENAI_COMPATIBLE_MODELS=${server.scenarioNames.join(",")}

"dev-demo" comes first, so Auto picks it: ask for a heading, e.g. Make the heading say "Hi there".
Press Ctrl-C to stop.
`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void server.close().then(() => process.exit(0));
  });
}
