#!/usr/bin/env node
// Starts `next dev` or `next start` bound to 127.0.0.1 unless HOST says otherwise, and refuses a
// non-loopback bind without PATCHWORK_AUTH_TOKEN: an open builder on a network is a remote shell
// for anyone who finds it. Runs Next in this same process so the PID is the server's.
import { createRequire } from "node:module";
import { installConnectionGuard } from "./connection-guard.mjs";

const mode = process.argv[2] === "start" ? "start" : "dev";
const host = process.env.HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
const extraArguments = process.argv.slice(3);

/** The last `--hostname X`, `--hostname=X`, `-H X` or `-H=X` passed through to Next, if any. */
function hostnameArgument(values) {
  let found = null;
  values.forEach((value, index) => {
    const match = value.match(/^(?:--hostname|-H)(?:=(.*))?$/);
    if (match) found = match[1] ?? values[index + 1] ?? null;
  });
  return found;
}

const argumentHost = hostnameArgument(extraArguments);
const requestedHost = argumentHost ?? host;
const requestedBy = argumentHost === null ? `HOST=${host}` : `--hostname ${argumentHost}`;
const loopback =
  ["127.0.0.1", "localhost", "::1", "[::1]"].includes(requestedHost) ||
  requestedHost.startsWith("127.");

if (!loopback && !process.env.PATCHWORK_AUTH_TOKEN) {
  console.error(
    `Refusing to start: ${requestedBy} exposes Patchwork beyond this machine, and PATCHWORK_AUTH_TOKEN is not set.\n` +
      "Set PATCHWORK_AUTH_TOKEN to a long random secret (e.g. `openssl rand -hex 32`) to require sign-in, " +
      "or leave HOST unset to bind 127.0.0.1.",
  );
  process.exit(1);
}
if (process.env.PATCHWORK_AUTH_TOKEN && process.env.PATCHWORK_AUTH_TOKEN.length < 16) {
  console.error("Refusing to start: PATCHWORK_AUTH_TOKEN must be at least 16 characters.");
  process.exit(1);
}

// HOST is checked above for a clear early message; the guard checks the address really bound,
// whatever arguments reach Next (`npm start -- --hostname 0.0.0.0` included).
installConnectionGuard({
  onExposedListen: (message) => {
    console.error(message);
    process.exit(1);
  },
});

const require = createRequire(import.meta.url);
const nextBin = require.resolve("next/dist/bin/next");
process.argv = [
  process.argv[0],
  nextBin,
  mode,
  "--hostname",
  host,
  "--port",
  port,
  ...process.argv.slice(3),
];
await import(nextBin);
