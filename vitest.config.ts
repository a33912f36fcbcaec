import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
const shared = {
  resolve: { alias: { "@": root } },
};
const serverOnlyAlias = { "server-only": path.resolve(root, "test/support/server-only-noop.ts") };
const excluded = ["node_modules/**", "e2e/**", ".next/**", ".data/**"];

export default defineConfig({
  ...shared,
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          include: ["**/*.test.ts", "**/*.test.tsx"],
          exclude: [...excluded, "**/*.integration.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Runs executed in-process end without the browser check; it has suites of its own.
          env: { APPS_CODING_AGENT_AUTO_VERIFY: "0" },
          alias: serverOnlyAlias,
        },
      },
      {
        ...shared,
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: excluded,
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each suite starts its own production servers; two at a time keeps the machine responsive.
          maxWorkers: 2,
          // The servers they start check every run event against the contract as they write it.
          env: { PATCHWORK_VALIDATE_EVENTS: "1" },
          alias: serverOnlyAlias,
        },
      },
    ],
  },
});
