import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", "e2e/**", ".next/**", ".data/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites start real servers and databases; keep them from starving each other.
    maxWorkers: 2,
    server: { deps: { inline: ["server-only"] } },
    alias: { "server-only": path.resolve(import.meta.dirname, "test/support/server-only-noop.ts") },
  },
});
