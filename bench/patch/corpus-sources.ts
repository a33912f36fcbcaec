import fs from "node:fs";
import path from "node:path";

/** A real source file that ships in node_modules. */
export interface SourceFile {
  /** Path relative to the project root, for the report. */
  name: string;
  /** Its lines (LF), without the final newline. */
  lines: string[];
  extension: string;
}

// Real code of several kinds: React's runtime, TypeScript's library declarations, Next.js's
// server and client, jsdiff, zod and drizzle — minified files are skipped (they are one line).
const candidates = [
  "node_modules/react-dom/cjs/react-dom-client.development.js",
  "node_modules/react-dom/cjs/react-dom-server.node.development.js",
  "node_modules/react/cjs/react.development.js",
  "node_modules/typescript/lib/lib.es5.d.ts",
  "node_modules/typescript/lib/lib.dom.d.ts",
  "node_modules/typescript/lib/lib.es2015.core.d.ts",
  "node_modules/typescript/lib/lib.es2015.promise.d.ts",
  "node_modules/typescript/lib/lib.webworker.d.ts",
  "node_modules/next/dist/server/base-server.js",
  "node_modules/next/dist/server/config.js",
  "node_modules/next/dist/server/config-shared.js",
  "node_modules/next/dist/server/image-optimizer.js",
  "node_modules/next/dist/server/next-server.js",
  "node_modules/next/dist/client/index.js",
  "node_modules/next/dist/client/router.js",
  "node_modules/next/dist/shared/lib/router/router.js",
  "node_modules/next/dist/build/index.js",
  "node_modules/next/dist/build/webpack-config.js",
  "node_modules/diff/libesm/patch/apply.js",
  "node_modules/diff/libesm/patch/parse.js",
  "node_modules/diff/libesm/patch/create.js",
  "node_modules/diff/libesm/diff/base.js",
  "node_modules/zod/v4/core/schemas.js",
  "node_modules/zod/v4/classic/schemas.js",
  "node_modules/drizzle-orm/pg-core/dialect.js",
  "node_modules/drizzle-orm/sql/sql.js",
  "node_modules/drizzle-orm/pg-core/query-builders/select.js",
  "node_modules/typescript/lib/typescript.d.ts",
];

/**
 * Files the engine's own tests and the main corpus never use, for the independent measurement
 * issue 20 asks for (`npm run bench:patch -- --independent`).
 */
const independentCandidates = [
  "node_modules/@tanstack/query-core/build/modern/queryClient.js",
  "node_modules/@tanstack/query-core/build/modern/query.js",
  "node_modules/postgres/src/connection.js",
  "node_modules/postgres/src/index.js",
  "node_modules/postgres/src/types.js",
  "node_modules/ai/dist/index.mjs",
  "node_modules/esbuild/lib/main.js",
  "node_modules/eventsource-parser/dist/index.js",
  "node_modules/@codemirror/view/dist/index.js",
  "node_modules/@codemirror/state/dist/index.js",
];

/** Reads the candidate files that exist and look like human-written source. */
export function loadSourceFiles(
  root: string,
  corpus: "main" | "independent" = "main",
): SourceFile[] {
  const files: SourceFile[] = [];
  for (const name of corpus === "main" ? candidates : independentCandidates) {
    const absolute = path.join(root, name);
    if (!fs.existsSync(absolute)) continue;
    const text = fs.readFileSync(absolute, "utf8").replace(/\r\n/g, "\n");
    const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
    const longest = lines.reduce((maximum, line) => Math.max(maximum, line.length), 0);
    if (lines.length < 150 || longest > 2000) continue;
    files.push({ name, lines, extension: path.extname(name) });
  }
  return files;
}
