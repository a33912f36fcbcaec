#!/usr/bin/env node
// A scripted stand-in for the Claude Code CLI as the agent SDK drives it (stream-json on stdin and
// stdout, control requests both ways), for what the real binary cannot be made to show on demand:
// an interrupt it never confirms, a rate-limit rejection, a resume it accepts. The scenario is the
// `--model` argument; what it is asked is logged to $HOME/fake-log.jsonl.
import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

const args = process.argv.slice(2);
if (args.includes("--version")) {
  console.log("2.1.330 (Claude Code)");
  process.exit(0);
}
/** `--name value` or `--name=value`, as the SDK writes it. */
const argument = (name) => {
  const joined = args.find((entry) => entry.startsWith(`${name}=`));
  if (joined) return joined.slice(name.length + 1);
  const index = args.indexOf(name);
  return index === -1 ? null : args[index + 1];
};
const scenario = argument("--model") ?? "happy";
const resume = argument("--resume");
const sessionId = resume ?? "11111111-2222-4333-8444-555555555555";
const logFile = path.join(process.env.HOME ?? ".", "fake-log.jsonl");
const record = (entry) => appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
record({ started: { scenario, resume } });

const waiting = new Map();
let nextRequest = 1;
/** A control request to the SDK (a permission question); resolves with its answer. */
const ask = (request) =>
  new Promise((resolve) => {
    const id = `fake-${nextRequest++}`;
    waiting.set(id, resolve);
    send({ type: "control_request", request_id: id, request });
  });

const usage = {
  input_tokens: 100,
  output_tokens: 20,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};
const result = (subtype, extra = {}) =>
  send({
    type: "result",
    subtype,
    is_error: subtype !== "success",
    duration_ms: 5,
    duration_api_ms: 5,
    num_turns: 1,
    session_id: sessionId,
    total_cost_usd: 0.001,
    usage,
    uuid: `u-${nextRequest++}`,
    ...extra,
  });
const textDelta = (text) =>
  send({
    type: "stream_event",
    event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    session_id: sessionId,
    parent_tool_use_id: null,
    uuid: `u-${nextRequest++}`,
  });

let playing = false;
async function play() {
  if (resume === "gone") {
    process.stderr.write(`No conversation found with session ID: ${resume}\n`);
    process.exit(1);
  }
  send({
    type: "system",
    subtype: "init",
    session_id: sessionId,
    cwd: process.cwd(),
    model: scenario,
    tools: ["Read", "Edit"],
    mcp_servers: [],
    permissionMode: "default",
    apiKeySource: "ANTHROPIC_API_KEY",
    claude_code_version: "2.1.330",
    slash_commands: [],
    output_style: "default",
    skills: [],
    plugins: [],
    uuid: "u-init",
  });
  if (scenario === "rate-limited") {
    send({
      type: "rate_limit_event",
      rate_limit_info: { status: "rejected", resetsAt: 1_900_000_000, rateLimitType: "five_hour" },
      session_id: sessionId,
      uuid: "u-rate",
    });
    return;
  }
  textDelta("Changing it.");
  if (scenario === "interrupt-ignored") return; // Never ends the turn, whatever it is told.
  const input = {
    file_path: path.join(process.cwd(), "src", "App.tsx"),
    old_string: "a",
    new_string: "b",
  };
  send({
    type: "assistant",
    message: {
      id: "msg-1",
      role: "assistant",
      model: scenario,
      content: [{ type: "tool_use", id: "toolu_1", name: "Edit", input }],
    },
    session_id: sessionId,
    parent_tool_use_id: null,
    uuid: "u-assistant",
  });
  const answer = await ask({
    subtype: "can_use_tool",
    tool_name: "Edit",
    input,
    tool_use_id: "toolu_1",
  });
  record({ permission: answer.behavior, message: answer.message ?? null });
  const allowed = answer.behavior === "allow";
  if (allowed) writeFileSync(input.file_path, "changed by the fake claude\n");
  send({
    type: "user",
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          is_error: !allowed,
          content: allowed
            ? "The file has been updated."
            : `Permission denied: ${answer.message ?? ""}`,
        },
      ],
    },
    session_id: sessionId,
    parent_tool_use_id: null,
    uuid: "u-result",
  });
  textDelta(" Done.");
  result("success", { result: "Done." });
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "control_response") {
    const id = message.response?.request_id;
    waiting.get(id)?.(message.response?.response ?? {});
    waiting.delete(id);
    return;
  }
  if (message.type === "control_request") {
    record({ control: message.request?.subtype });
    send({
      type: "control_response",
      response: { subtype: "success", request_id: message.request_id, response: {} },
    });
    if (message.request?.subtype === "interrupt" && scenario !== "interrupt-ignored") {
      result("error_during_execution", { errors: ["interrupted"] });
    }
    return;
  }
  if (message.type === "user" && !playing) {
    playing = true;
    void play();
  }
});
input.on("close", () => {
  if (scenario !== "interrupt-ignored") process.exit(0);
});
