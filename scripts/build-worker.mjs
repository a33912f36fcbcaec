#!/usr/bin/env node
// Bundles `npm run worker` (lib/worker/worker-main.ts and the run code it shares with the web
// server) into <dist dir>/patchwork-worker/worker.mjs. Packages stay in node_modules, as they do
// for Next's server; only our own TypeScript is compiled, with the tsconfig's `@/` paths.
import path from "node:path";
import { build } from "esbuild";

const outfile = path.resolve(
  process.env.PATCHWORK_DIST_DIR || ".next",
  "patchwork-worker",
  "worker.mjs",
);
await build({
  entryPoints: ["lib/worker/worker-main.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
  // `server-only` guards against bundling into the browser; this is a server process.
  plugins: [
    {
      name: "server-only",
      setup(context) {
        context.onResolve({ filter: /^server-only$/ }, () => ({
          path: "server-only",
          namespace: "empty",
        }));
        context.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "" }));
      },
    },
  ],
});
console.log(`worker bundled: ${path.relative(process.cwd(), outfile)}`);
