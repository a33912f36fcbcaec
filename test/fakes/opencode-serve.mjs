#!/usr/bin/env node
// A scripted stand-in for `opencode serve`, for the edge cases the real server cannot be made to
// show on demand: an abort it never confirms, a server that dies in the middle of a turn. It
// serves the few routes Patchwork's SDK client uses, with basic auth, and an SSE event stream.
// The scenario is the prompt's model id; what it is asked is logged to $HOME/fake-log.jsonl.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const args = process.argv.slice(2);
if (args.includes("--version")) {
  console.log("1.18.33");
  process.exit(0);
}
const port = Number(args[args.indexOf("--port") + 1]);
const password = process.env.OPENCODE_SERVER_PASSWORD ?? "";
const logFile = path.join(process.env.HOME ?? ".", "fake-log.jsonl");
const record = (entry) => appendFileSync(logFile, `${JSON.stringify(entry)}\n`);

const sessions = new Map(); // id → { directory, status }
const streams = new Set();
const pendingPermissions = new Map(); // id → resolve(reply)
let nextId = 1;
const id = (prefix) => `${prefix}_fake${nextId++}`;

function publish(type, properties) {
  const frame = `data: ${JSON.stringify({ type, properties })}\n\n`;
  for (const response of streams) response.write(frame);
}

function setStatus(sessionID, type) {
  const session = sessions.get(sessionID);
  if (session) session.status = type;
  publish("session.status", { sessionID, status: { type } });
  if (type === "idle") publish("session.idle", { sessionID });
}

async function playTurn(sessionID, modelID) {
  const session = sessions.get(sessionID);
  setStatus(sessionID, "busy");
  const messageID = id("msg");
  const info = (completed) => ({
    id: messageID,
    sessionID,
    role: "assistant",
    time: { created: Date.now(), ...(completed ? { completed: Date.now() } : {}) },
    parentID: "user",
    modelID,
    providerID: "patchwork",
    mode: "build",
    cost: 0,
    tokens: { input: 120, output: 30, reasoning: 0, cache: { read: 0, write: 0 } },
  });
  publish("message.updated", { sessionID, info: info(false) });
  const textPart = id("prt");
  publish("message.part.updated", {
    sessionID,
    part: { id: textPart, sessionID, messageID, type: "text", text: "" },
    time: Date.now(),
  });
  publish("message.part.delta", {
    sessionID,
    messageID,
    partID: textPart,
    field: "text",
    delta: "Working on it.",
  });
  if (modelID === "abort-ignored") return; // Busy until killed; an abort changes nothing.
  if (modelID === "rate-limited") {
    // The provider's 429, given up on: OpenCode reports it with the answer's headers.
    publish("session.error", {
      sessionID,
      error: {
        name: "APIError",
        data: {
          message: "Rate limit reached for requests",
          statusCode: 429,
          isRetryable: false,
          responseHeaders: { "retry-after": "90" },
        },
      },
    });
    setStatus(sessionID, "idle");
    return;
  }
  if (modelID === "die") {
    record({ dying: true });
    process.exit(1);
  }
  const callID = "call_fake_1";
  const filepath = path.join(session.directory, "src", "App.tsx");
  const toolPart = (state) => ({
    id: "prt_tool",
    sessionID,
    messageID,
    type: "tool",
    callID,
    tool: "edit",
    state,
  });
  const input = { filePath: filepath, oldString: "a", newString: "b" };
  publish("message.part.updated", {
    sessionID,
    part: toolPart({ status: "running", input, time: { start: Date.now() } }),
    time: Date.now(),
  });
  const permissionID = id("per");
  const reply = await new Promise((resolve) => {
    pendingPermissions.set(permissionID, resolve);
    publish("permission.asked", {
      id: permissionID,
      sessionID,
      permission: "edit",
      patterns: [filepath],
      metadata: {
        filepath,
        diff: `Index: ${filepath}\n===\n--- ${filepath}\n+++ ${filepath}\n@@ -1 +1 @@\n-a\n+b\n`,
      },
      always: [],
      tool: { messageID, callID },
    });
  });
  record({ permissionReply: reply });
  if (reply === "reject") {
    publish("message.part.updated", {
      sessionID,
      part: toolPart({
        status: "error",
        input,
        error: "The user rejected permission to use this specific tool call.",
        time: { start: Date.now(), end: Date.now() },
      }),
      time: Date.now(),
    });
  } else {
    mkdirSync(path.dirname(filepath), { recursive: true });
    writeFileSync(filepath, "changed by the fake opencode\n");
    publish("message.part.updated", {
      sessionID,
      part: toolPart({
        status: "completed",
        input,
        output: "Edit applied successfully.",
        title: "src/App.tsx",
        metadata: {},
        time: { start: Date.now(), end: Date.now() },
      }),
      time: Date.now(),
    });
  }
  publish("message.updated", { sessionID, info: info(true) });
  setStatus(sessionID, "idle");
}

function readJson(request) {
  return new Promise((resolve) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => resolve(body ? JSON.parse(body) : {}));
  });
}

const server = createServer(async (request, response) => {
  const expected = `Basic ${Buffer.from(`opencode:${password}`).toString("base64")}`;
  if (request.headers.authorization !== expected) {
    response.writeHead(401).end();
    return;
  }
  const url = new URL(request.url ?? "/", "http://fake");
  const directory =
    url.searchParams.get("directory") ?? request.headers["x-opencode-directory"] ?? "";
  const json = (status, body) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const route = `${request.method} ${url.pathname}`;
  const matchRoute = (pattern) => pattern.exec(route);
  if (route === "GET /event") {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.write(`data: ${JSON.stringify({ type: "server.connected", properties: {} })}\n\n`);
    streams.add(response);
    request.on("close", () => streams.delete(response));
    return;
  }
  if (route === "GET /session")
    return json(
      200,
      [...sessions.keys()].map((key) => ({ id: key })),
    );
  if (route === "POST /session") {
    const sessionID = id("ses");
    sessions.set(sessionID, { directory: String(directory), status: "idle" });
    return json(200, {
      id: sessionID,
      directory,
      projectID: "global",
      title: "fake",
      version: "1.18.33",
      time: { created: Date.now(), updated: Date.now() },
    });
  }
  if (route === "GET /session/status") {
    return json(
      200,
      Object.fromEntries(
        [...sessions]
          .filter(([, session]) => session.status !== "idle")
          .map(([key, session]) => [key, { type: session.status }]),
      ),
    );
  }
  const promptRoute = matchRoute(/^POST \/session\/([^/]+)\/prompt_async$/);
  if (promptRoute) {
    const body = await readJson(request);
    record({ prompt: { sessionID: promptRoute[1], model: body.model } });
    response.writeHead(204).end();
    void playTurn(promptRoute[1], body.model?.modelID ?? "happy");
    return;
  }
  const abortRoute = matchRoute(/^POST \/session\/([^/]+)\/abort$/);
  if (abortRoute) {
    record({ abort: abortRoute[1] });
    return json(200, true);
  }
  const sessionRoute = matchRoute(/^GET \/session\/([^/]+)$/);
  if (sessionRoute) {
    const session = sessions.get(sessionRoute[1]);
    return session
      ? json(200, { id: sessionRoute[1], directory: session.directory })
      : json(404, { name: "NotFoundError", data: { message: "Session not found" } });
  }
  const replyRoute = matchRoute(/^POST \/permission\/([^/]+)\/reply$/);
  if (replyRoute) {
    const body = await readJson(request);
    pendingPermissions.get(replyRoute[1])?.(body.reply);
    pendingPermissions.delete(replyRoute[1]);
    return json(200, true);
  }
  json(404, { name: "NotFound", data: { message: `fake: no route ${route}` } });
});
server.listen(port, "127.0.0.1");
