import { createOpenAI } from "@ai-sdk/openai";
import { stepCountIs, streamText, tool } from "ai";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ModelServer, startModelServer } from "./model-server";
import type { Scenario } from "./scenario";

const patchText = "*** Begin Patch\n*** Update File: src/App.tsx\n@@\n-a\n+b\n*** End Patch\n";

const scenarios: Record<string, Scenario> = {
  "responses-tools": {
    name: "responses-tools",
    steps: [
      {
        text: ["Looking ", "at the app."],
        tool_calls: [{ name: "shell", arguments: { command: ["cat", "src/App.tsx"] } }],
        usage: { prompt_tokens: 120, completion_tokens: 30, cached_tokens: 20 },
      },
      {
        expect: { tool_result_includes: "file contents" },
        tool_calls: [{ name: "apply_patch", arguments: { input: patchText } }],
      },
      { text: ["Changed ", "it."] },
    ],
  },
};

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ scenarios });
});
afterAll(async () => {
  await server.close();
});

/** The server's SSE stream for one request, as parsed events. */
async function streamEvents(
  body: object,
): Promise<{ event?: string; data: Record<string, unknown> }[]> {
  const response = await fetch(`${server.url}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ stream: true, ...body }),
  });
  expect(response.status).toBe(200);
  const events: { event?: string; data: Record<string, unknown> }[] = [];
  const stream = (response.body as ReadableStream)
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    events.push({ event: value.event, data: JSON.parse(value.data) });
  }
}

const tools = [
  { type: "function", name: "shell", parameters: {} },
  { type: "custom", name: "apply_patch", format: { type: "grammar" } },
];
const userTurn = {
  type: "message",
  role: "user",
  content: [{ type: "input_text", text: "Edit it" }],
};

describe("POST /v1/responses", () => {
  it("streams text, a function call and usage as the Responses API frames them", async () => {
    const events = await streamEvents({ model: "responses-tools", input: [userTurn], tools });
    expect(events.every((event) => event.event === event.data.type)).toBe(true);
    expect(events[0].data.type).toBe("response.created");
    const deltas = events.filter((event) => event.data.type === "response.output_text.delta");
    expect(deltas.map((event) => event.data.delta)).toEqual(["Looking ", "at the app."]);
    const call = events.find(
      (event) =>
        event.data.type === "response.output_item.done" &&
        (event.data.item as { type: string }).type === "function_call",
    );
    expect(call?.data.item).toMatchObject({
      name: "shell",
      arguments: JSON.stringify({ command: ["cat", "src/App.tsx"] }),
    });
    expect(events.at(-1)?.data).toMatchObject({
      type: "response.completed",
      response: {
        status: "completed",
        usage: {
          input_tokens: 120,
          output_tokens: 30,
          input_tokens_details: { cached_tokens: 20 },
        },
      },
    });
  });

  it("answers the next step once the tool output comes back, sending a custom tool's text raw", async () => {
    const call = { type: "function_call", call_id: "call_0_0", name: "shell", arguments: "{}" };
    const output = { type: "function_call_output", call_id: "call_0_0", output: "file contents" };
    const events = await streamEvents({
      model: "responses-tools",
      input: [userTurn, { type: "message", role: "assistant", content: [] }, call, output],
      tools,
    });
    const done = events.find(
      (event) =>
        event.data.type === "response.output_item.done" &&
        (event.data.item as { type: string }).type === "custom_tool_call",
    );
    expect(done?.data.item).toMatchObject({ name: "apply_patch", input: patchText });
    const pieces = events
      .filter((event) => event.data.type === "response.custom_tool_call_input.delta")
      .map((event) => event.data.delta)
      .join("");
    expect(pieces).toBe(patchText);
    expect(server.requests.at(-1)).toMatchObject({ path: "/v1/responses", stepIndex: 1 });
  });

  it("drives the AI SDK's Responses client through a tool loop", async () => {
    const openai = createOpenAI({ baseURL: server.url, apiKey: "scripted" });
    const commands: string[][] = [];
    const result = streamText({
      model: openai.responses("responses-tools"),
      prompt: "Edit it",
      stopWhen: stepCountIs(2),
      tools: {
        shell: tool({
          inputSchema: z.object({ command: z.array(z.string()) }),
          execute: async ({ command }) => {
            commands.push(command);
            return "file contents";
          },
        }),
      },
    });
    const steps = await result.steps;
    expect(steps[0].text).toBe("Looking at the app.");
    expect(steps[0].usage).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    expect(commands).toEqual([["cat", "src/App.tsx"]]);
    // The second request carried the tool's output back, so the server moved to step 1.
    expect(server.requests.at(-1)).toMatchObject({ path: "/v1/responses", stepIndex: 1 });
  });

  it("refuses a request that is not a Responses request", async () => {
    const response = await fetch(`${server.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /Invalid responses request/,
    );
  });
});
