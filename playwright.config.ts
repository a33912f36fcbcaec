import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import {
  authPort,
  modelServerPort,
  journeyPort as port,
  providersPort,
} from "./e2e/support/servers";
import { modelServerEnvironment } from "./test/model-server/model-server-environment";

/**
 * End-to-end tests drive real Chromium against a production build. One server for the
 * journey (no auth token, as on loopback by default) and one started with PATCHWORK_AUTH_TOKEN
 * for the sign-in flow; each gets a fresh PGlite data dir per run. This file is evaluated again
 * in the worker, so the dirs and the token travel through the environment.
 */
process.env.PATCHWORK_E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "patchwork-e2e-"));
process.env.PATCHWORK_E2E_AUTH_DATA_DIR ??= fs.mkdtempSync(
  path.join(os.tmpdir(), "patchwork-e2e-auth-"),
);
process.env.PATCHWORK_E2E_AUTH_TOKEN ??= randomBytes(24).toString("hex");
process.env.PATCHWORK_E2E_PROVIDERS_DATA_DIR ??= fs.mkdtempSync(
  path.join(os.tmpdir(), "patchwork-e2e-providers-"),
);

// The project's convention: PATCHWORK_DIST_DIR picks another build folder for parallel runs.
const distDir = process.env.PATCHWORK_DIST_DIR || ".next";
const nextStart = (listenPort: number) =>
  `node node_modules/next/dist/bin/next start --hostname 127.0.0.1 --port ${listenPort}`;
// The scripted model server the agent specs run against (`compatible:<scenario>` models; the
// first is what Auto picks), with the agent panel's own scenarios from e2e/agent-scenarios.
// Moves with PATCHWORK_E2E_PORT too, so two checkouts can run the suite side by side.
const modelEnvironment = modelServerEnvironment(`http://127.0.0.1:${modelServerPort}/v1`, [
  "happy-path",
  "patch-retry",
  "slow-stream",
  "text-only",
  "agent-slow-reply",
  "agent-many-tools",
  "agent-outage",
  "rate-limited-resume",
  "codex-edit-heading",
  "opencode-edit-heading",
]);
const serverEnvironment = {
  NODE_ENV: "production",
  PATCHWORK_DIST_DIR: distDir,
  HOST: "127.0.0.1",
  // PGlite, even when the shell running the tests has a DATABASE_URL.
  DATABASE_URL: "",
  PATCHWORK_DISABLE_OLLAMA_DETECTION: "1",
};

export default defineConfig({
  testDir: "./e2e",
  testMatch: "*.spec.ts",
  outputDir: "test-results",
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // One server, one embedded database: tests run one at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI
    ? [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]]
    : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    video: "off",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
  webServer: [
    {
      // First, so the model list the journey server discovers at start is already there.
      command: `npm run dev:model -- --port ${modelServerPort} --scenario-dir e2e/agent-scenarios`,
      url: `http://127.0.0.1:${modelServerPort}/v1/models`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      // `npm test` has just built; `npm run test:e2e` alone builds only when there is no build yet.
      command: `(test -f ${distDir}/BUILD_ID || npm run build) && ${nextStart(port)}`,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...serverEnvironment,
        ...modelEnvironment,
        // The Anthropic provider, played by the scripted model server (its `claude-haiku-4-5`
        // scenario), for the Claude Code spec. Compatible models stay first: Auto is unchanged.
        ANTHROPIC_API_KEY: "scripted-key",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${modelServerPort}`,
        PATCHWORK_DATA_DIR: process.env.PATCHWORK_E2E_DATA_DIR,
        PATCHWORK_AUTH_TOKEN: "",
        // TEST-ONLY: the scripted folder engine the approval-card spec drives.
        PATCHWORK_TEST_ENGINES: "1",
      },
    },
    {
      // Starts after the first server, reusing its build.
      command: nextStart(authPort),
      url: `http://127.0.0.1:${authPort}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...serverEnvironment,
        PATCHWORK_DATA_DIR: process.env.PATCHWORK_E2E_AUTH_DATA_DIR,
        PATCHWORK_AUTH_TOKEN: process.env.PATCHWORK_E2E_AUTH_TOKEN,
      },
    },
    {
      // No provider in its environment: the settings spec adds the scripted model server there.
      command: nextStart(providersPort),
      url: `http://127.0.0.1:${providersPort}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...serverEnvironment,
        ...modelServerEnvironment("", []),
        OPENAI_COMPATIBLE_BASE_URL: "",
        PATCHWORK_DATA_DIR: process.env.PATCHWORK_E2E_PROVIDERS_DATA_DIR,
        PATCHWORK_AUTH_TOKEN: "",
      },
    },
  ],
});
