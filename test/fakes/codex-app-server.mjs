#!/usr/bin/env node
// A scripted stand-in for `codex app-server`, for the protocol edge cases the real binary cannot
// be made to show on demand (a crash before the thread, an ignored interrupt, an unknown server
// request, a refused resume). It speaks the same newline-delimited JSON-RPC. The scenario is the
// thread's model name (the only thing Patchwork passes that a test controls); everything it
// receives is logged to $CODEX_HOME/fake-log.jsonl for the test to read.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

const args = process.argv.slice(2);
if (args[0] === "--version") {
  console.log("codex-cli 0.169.0");
  process.exit(0);
}
if (args[0] === "debug" && args[1] === "models") {
  console.log(JSON.stringify({ models: [{ slug: "gpt-5.5", apply_patch_tool_type: "freeform" }] }));
  process.exit(0);
}
if (args[0] !== "app-server") {
  console.error(`fake codex: unsupported arguments ${args.join(" ")}`);
  process.exit(2);
}

const home = process.env.CODEX_HOME ?? ".";
const logFile = path.join(home, "fake-log.jsonl");
const record = (entry) => appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
let nextServerRequestId = 1000;
const waitingForAnswer = new Map();
/** Sends a server request and resolves with the client's answer. */
const ask = (method, params) =>
  new Promise((resolve) => {
    const id = nextServerRequestId++;
    waitingForAnswer.set(id, resolve);
    send({ id, method, params });
  });

let scenario = "happy";
let cwd = process.cwd();
let threadId = "thread-fake-1";
let turnId = null;
let interrupted = false;

const turn = (status, error = null) => ({
  id: turnId,
  rootTurnId: null,
  items: [],
  itemsView: "notLoaded",
  status,
  error,
  startedAt: null,
  completedAt: null,
  durationMs: null,
});
const thread = () => ({ id: threadId });
const notify = (method, params) => send({ method, params });

async function playTurn(text) {
  const target = path.join(cwd, "src", "App.tsx");
  if (scenario === "unknown-request") {
    const answer = await ask("patchwork/fake/unknownRequest", { threadId });
    record({ unknownRequestAnswer: answer });
  }
  if (scenario === "repeat") {
    // The same command four times in a row, then nothing: the run's loop check must stop it.
    for (let index = 1; index <= 4; index += 1) {
      notify("item/started", {
        threadId,
        turnId,
        startedAtMs: Date.now(),
        item: {
          type: "commandExecution",
          id: `command-${index}`,
          command: "ls src",
          cwd,
          status: "inProgress",
          commandActions: [],
          aggregatedOutput: null,
          exitCode: null,
          durationMs: null,
        },
      });
    }
    return;
  }
  if (scenario === "usage-limit") {
    // The primary window is used up and resets in two minutes; the turn fails on it.
    notify("account/rateLimits/updated", {
      rateLimits: {
        primary: {
          usedPercent: 100,
          windowDurationMins: 300,
          resetsAt: Math.floor(Date.now() / 1000) + 120,
        },
        secondary: null,
      },
    });
    notify("turn/completed", {
      threadId,
      turn: turn("failed", {
        message: "You've hit your usage limit.",
        codexErrorInfo: "usageLimitExceeded",
        additionalDetails: null,
      }),
    });
    return;
  }
  if (scenario === "interrupt-confirmed" || scenario === "interrupt-ignored") {
    notify("item/agentMessage/delta", { threadId, turnId, itemId: "m1", delta: "Working" });
    return; // Waits for turn/interrupt (or never answers it).
  }
  notify("item/agentMessage/delta", {
    threadId,
    turnId,
    itemId: "m1",
    delta: `Echo: ${text.slice(0, 40)}`,
  });
  const change = {
    path: target,
    kind: { type: "update", move_path: null },
    diff: "@@ -1 +1 @@\n-old\n+new\n",
  };
  notify("item/started", {
    threadId,
    turnId,
    startedAtMs: Date.now(),
    item: { type: "fileChange", id: "change-1", changes: [change], status: "inProgress" },
  });
  const { decision } = await ask("item/fileChange/requestApproval", {
    threadId,
    turnId,
    itemId: "change-1",
    startedAtMs: Date.now(),
    reason: null,
  });
  record({ fileChangeDecision: decision });
  const accepted = decision === "accept" || decision === "acceptForSession";
  if (accepted) {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, "changed by the fake codex\n");
  }
  notify("item/completed", {
    threadId,
    turnId,
    completedAtMs: Date.now(),
    item: {
      type: "fileChange",
      id: "change-1",
      changes: [change],
      status: accepted ? "completed" : "declined",
    },
  });
  const { decision: commandDecision } = await ask("item/commandExecution/requestApproval", {
    kind: "command",
    threadId,
    turnId,
    itemId: "command-1",
    startedAtMs: Date.now(),
    environmentId: null,
    command: "npm test",
    cwd,
  });
  record({ commandDecision });
  const permission = await ask("item/permissions/requestApproval", {
    threadId,
    turnId,
    itemId: "permission-1",
    environmentId: null,
    startedAtMs: Date.now(),
    cwd,
    reason: "network",
    permissions: {},
  });
  record({ permissionAnswer: permission });
  notify("thread/tokenUsage/updated", {
    threadId,
    turnId,
    tokenUsage: {
      total: {
        totalTokens: 150,
        inputTokens: 100,
        cachedInputTokens: 20,
        cacheWriteInputTokens: 0,
        outputTokens: 50,
        reasoningOutputTokens: 0,
      },
      last: {
        totalTokens: 150,
        inputTokens: 100,
        cachedInputTokens: 20,
        cacheWriteInputTokens: 0,
        outputTokens: 50,
        reasoningOutputTokens: 0,
      },
      modelContextWindow: null,
    },
  });
  notify("item/agentMessage/delta", { threadId, turnId, itemId: "m2", delta: "Done." });
  notify("turn/completed", { threadId, turn: turn("completed") });
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  record({ received: message });
  if (message.id !== undefined && message.method === undefined) {
    waitingForAnswer.get(message.id)?.(message.result ?? { error: message.error });
    waitingForAnswer.delete(message.id);
    return;
  }
  switch (message.method) {
    case "initialize":
      if (scenario === "hang") return;
      send({ id: message.id, result: { userAgent: "fake-codex/0.169.0" } });
      return;
    case "initialized":
      return;
    case "thread/start":
      scenario = message.params.model;
      cwd = message.params.cwd;
      if (scenario === "crash-before-thread") {
        process.stderr.write("fake codex: thread store unavailable\n");
        process.exit(3);
      }
      if (scenario === "hang") return;
      send({ id: message.id, result: { thread: thread(), model: scenario, cwd } });
      notify("thread/started", { thread: thread() });
      return;
    case "thread/resume":
      scenario = message.params.model;
      cwd = message.params.cwd;
      if (scenario === "resume-refused") {
        send({
          id: message.id,
          error: {
            code: -32600,
            message: `no rollout found for thread id ${message.params.threadId}`,
          },
        });
        return;
      }
      threadId = message.params.threadId;
      send({ id: message.id, result: { thread: thread(), model: scenario, cwd } });
      return;
    case "turn/start":
      turnId = "turn-fake-1";
      send({ id: message.id, result: { turn: turn("inProgress") } });
      void playTurn(message.params.input.map((part) => part.text ?? "").join(""));
      return;
    case "turn/interrupt":
      if (scenario === "interrupt-ignored") return;
      interrupted = true;
      send({ id: message.id, result: {} });
      notify("turn/completed", { threadId, turn: turn("interrupted") });
      return;
    default:
      send({
        id: message.id,
        error: { code: -32601, message: `fake: no method ${message.method}` },
      });
  }
});
input.on("close", () => process.exit(interrupted ? 0 : 0));
