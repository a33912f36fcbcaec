import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  generateText,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type ToolSet,
  tool,
} from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { starterHeading } from "@/lib/workspace/starter-template";
import { type ModelServer, startModelServer } from "./model-server";
import { scenarioNames } from "./scenarios";
import { patchedHeading, starterAppSource } from "./starter-patches";

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

function model(name: string) {
  return createOpenAICompatible({
    name: "scripted",
    baseURL: server.url,
    includeUsage: true,
  }).chatModel(name);
}

/** Requests the server received for one scenario since `since` (an index into `requests`). */
function requestsFor(name: string, since: number) {
  return server.requests.slice(since).filter((request) => request.model === name);
}

async function collect<TOOLS extends ToolSet>(stream: AsyncIterable<TextStreamPart<TOOLS>>) {
  const parts: TextStreamPart<TOOLS>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const numberedStarterApp = starterAppSource()
  .split("\n")
  .map((line, index) => `${index + 1}: ${line}`)
  .join("\n");

/** Minimal stand-ins for the agent's tools, enough to drive a scenario through its steps. */
function agentTools(patches: string[] = []) {
  return {
    read_file_range: tool({
      description: "Read numbered lines of a file.",
      inputSchema: z.object({
        path: z.string(),
        start_line: z.number().optional(),
        end_line: z.number().optional(),
      }),
      execute: async ({ path }) => ({ path, content: numberedStarterApp, total_lines: 200 }),
    }),
    apply_patch: tool({
      description: "Apply a patch.",
      inputSchema: z.object({ patch: z.string() }),
      execute: async ({ patch }) => {
        patches.push(patch);
        return { ok: true, files_changed: ["src/App.tsx"] };
      },
    }),
  };
}

describe("the scripted model server through the AI SDK", () => {
  it("streams text deltas and usage", async () => {
    const result = streamText({ model: model("text-only"), prompt: "What do you do?" });
    const parts = await collect(result.fullStream);
    const deltas = parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : []));
    expect(deltas).toEqual([
      "Patchwork ",
      "edits your app ",
      "by applying patches ",
      "to its files. ",
      "Ask me to change something ",
      "and I'll show you exactly what changed.",
    ]);
    const usage = await result.totalUsage;
    expect(usage.inputTokens).toBe(900);
    expect(usage.outputTokens).toBe(24);
    expect(await result.finishReason).toBe("stop");
  });

  it("plays happy-path across tool round trips, with reasoning and summed usage", async () => {
    const since = server.requests.length;
    const patches: string[] = [];
    const result = streamText({
      model: model("happy-path"),
      prompt: "Make the heading say Hello from Patchwork",
      tools: agentTools(patches),
      stopWhen: stepCountIs(6),
    });
    const parts = await collect(result.fullStream);

    const toolCalls = parts.flatMap((part) => (part.type === "tool-call" ? [part] : []));
    expect(toolCalls.map((call) => call.toolName)).toEqual(["read_file_range", "apply_patch"]);
    expect(toolCalls[0]?.input).toEqual({ path: "src/App.tsx" });
    expect(patches).toHaveLength(1);
    expect(patches[0]).toMatch(new RegExp(`^-\\s*${starterHeading}$`, "m"));
    expect(patches[0]).toMatch(new RegExp(`^\\+\\s*${patchedHeading}$`, "m"));
    expect(parts.some((part) => part.type === "reasoning-delta")).toBe(true);
    expect(await result.text).toBe(
      `I changed the heading in src/App.tsx from “${starterHeading}” to “${patchedHeading}”.`,
    );
    expect((await result.steps).length).toBe(3);
    expect((await result.totalUsage).inputTokens).toBe(1_200 + 2_600 + 2_900);

    const requests = requestsFor("happy-path", since);
    expect(requests.map((request) => [request.stepIndex, request.status])).toEqual([
      [0, 200],
      [1, 200],
      [2, 200],
    ]);
    expect(requests.every((request) => request.expectationFailure === undefined)).toBe(true);
    // The second request carried the read's result back: that is what step 1 expected.
    const secondMessages = requests[1]?.body?.messages ?? [];
    expect(secondMessages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("answers a failed expectation with an error that says what was wrong", async () => {
    const since = server.requests.length;
    const tools = {
      ...agentTools(),
      read_file_range: tool({
        description: "A read that returns the wrong file.",
        inputSchema: z.object({ path: z.string() }),
        execute: async () => ({ content: "nothing to see" }),
      }),
    };
    const errors: unknown[] = [];
    const result = streamText({
      model: model("happy-path"),
      prompt: "Change the heading",
      tools,
      stopWhen: stepCountIs(6),
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await collect(result.fullStream);
    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).statusCode).toBe(400);
    expect((errors[0] as APICallError).message).toContain(
      `the tool results should contain "${starterHeading}"`,
    );
    expect(requestsFor("happy-path", since)[1]?.expectationFailure).toContain("nothing to see");
  });

  it("keeps the loop going through broken JSON and a missing field (malformed-args)", async () => {
    const since = server.requests.length;
    const patches: string[] = [];
    // Validates by hand, as the agent does, so a missing field answers the agent's error code.
    const read_file_range = tool({
      description: "Read a file.",
      inputSchema: z.record(z.string(), z.unknown()),
      execute: async (input) => {
        const unwrapped = (input.input ?? input) as Record<string, unknown>;
        const path = unwrapped.path ?? unwrapped.file_path;
        if (typeof path !== "string") {
          return { code: "TOOL_INPUT_VALIDATION_FAILED", fields: { path: "required" } };
        }
        return { path, content: numberedStarterApp };
      },
    });
    const result = streamText({
      model: model("malformed-args"),
      prompt: "Change the heading",
      tools: { ...agentTools(patches), read_file_range },
      stopWhen: stepCountIs(8),
    });
    const parts = await collect(result.fullStream);
    const toolErrors = parts.filter((part) => part.type === "tool-error");
    expect(toolErrors).toHaveLength(1);
    expect(patches).toHaveLength(1);
    expect(await result.text).toContain(patchedHeading);
    const requests = requestsFor("malformed-args", since);
    expect(requests.map((request) => request.stepIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(requests.every((request) => request.expectationFailure === undefined)).toBe(true);
  });

  it("surfaces a 500 as an API error", async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: model("server-error"),
      prompt: "Hello",
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await collect(result.fullStream);
    const [error] = errors;
    expect(APICallError.isInstance(error) && error.statusCode).toBe(500);
    expect((error as APICallError).message).toContain("failed on purpose");
  });

  it("answers 429 with retry-after, then succeeds on the retry", async () => {
    const since = server.requests.length;
    const errors: unknown[] = [];
    const limited = streamText({
      model: model("rate-limited"),
      prompt: "Hello",
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await collect(limited.fullStream);
    const [error] = errors as APICallError[];
    expect(error?.statusCode).toBe(429);
    expect(error?.isRetryable).toBe(true);
    expect(error?.responseHeaders?.["retry-after"]).toBe("1");

    const started = performance.now();
    const retried = streamText({
      model: model("rate-limited"),
      prompt: "Hello again",
      maxRetries: 2,
    });
    expect(await retried.text).toBe(
      "Thanks for waiting. The rate limit has passed, so here is my answer.",
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(requestsFor("rate-limited", since).map((request) => request.status)).toEqual([
      429, 429, 200,
    ]);
  });

  it("hangs after the headers until the client aborts", async () => {
    const started = performance.now();
    const result = streamText({
      model: model("hang"),
      prompt: "Hello",
      abortSignal: AbortSignal.timeout(300),
      onError: () => undefined,
    });
    const parts = await collect(result.fullStream);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3_000);
    expect(parts.some((part) => part.type === "abort" || part.type === "error")).toBe(true);
    expect(parts.some((part) => part.type === "text-delta")).toBe(false);
  });

  it("streams slow-stream with its delays and stops when the client leaves", async () => {
    const controller = new AbortController();
    const result = streamText({
      model: model("slow-stream"),
      prompt: "Go",
      tools: agentTools(),
      abortSignal: controller.signal,
      onError: () => undefined,
    });
    const started = performance.now();
    let deltas = 0;
    for await (const part of result.fullStream) {
      if (part.type === "text-delta" && ++deltas === 6) controller.abort();
    }
    expect(deltas).toBe(6);
    expect(performance.now() - started).toBeGreaterThanOrEqual(5 * 45);
  });

  it("streams long-stream's 2,000 numbered deltas in order", async () => {
    const started = performance.now();
    const result = streamText({ model: model("long-stream"), prompt: "Go" });
    const deltas: string[] = [];
    for await (const part of result.fullStream)
      if (part.type === "text-delta") deltas.push(part.text);
    expect(deltas).toHaveLength(2_000);
    expect(deltas.every((delta, index) => delta === `t${index} `)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("answers non-streaming requests with the same script", async () => {
    const text = await generateText({ model: model("text-only"), prompt: "Hi" });
    expect(text.text).toContain("Patchwork edits your app");
    expect(text.usage.outputTokens).toBe(24);

    const withTools = await generateText({
      model: model("happy-path"),
      prompt: "Hi",
      tools: agentTools(),
    });
    expect(withTools.toolCalls.map((call) => call.toolName)).toEqual(["read_file_range"]);
  });

  it("gives a request without tools the step's text only (a title request)", async () => {
    const since = server.requests.length;
    const title = await generateText({
      model: model("happy-path"),
      prompt: "Title for: change the heading",
    });
    expect(title.toolCalls).toEqual([]);
    expect(title.text).toBe("I'll update the heading. First, let me read src/App.tsx.");
    expect(requestsFor("happy-path", since)[0]?.offeredTools).toEqual([]);
  });

  it("refuses an unknown scenario with the list of known ones", async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: model("no-such-scenario"),
      prompt: "Hi",
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await collect(result.fullStream);
    expect((errors[0] as APICallError).statusCode).toBe(404);
    expect((errors[0] as APICallError).message).toContain("happy-path");
  });
});

describe("the scripted model server over plain HTTP", () => {
  it("binds loopback and lists the scenarios as models and as Ollama tags", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = (await (await fetch(`${server.url}/models`)).json()) as {
      data: { id: string }[];
    };
    expect(models.data.map((entry) => entry.id)).toEqual([...scenarioNames]);
    const tags = (await (await fetch(`${server.url.replace(/\/v1$/, "")}/api/tags`)).json()) as {
      models: { name: string }[];
    };
    expect(tags.models.map((entry) => entry.name)).toEqual([...scenarioNames]);
  });

  it("rate-limits each new identical conversation again after a success", async () => {
    const body = JSON.stringify({
      model: "rate-limited",
      messages: [{ role: "user", content: "same" }],
    });
    const post = () =>
      fetch(`${server.url}/chat/completions`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await post();
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([429, 200, 429, 200]);
  });

  it("cuts hanging streams on close", async () => {
    const own = await startModelServer();
    const response = await fetch(`${own.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "hang",
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reading = response.text().then(
      () => "ended",
      () => "failed",
    );
    const started = performance.now();
    await own.close();
    expect(await reading).toMatch(/ended|failed/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("serves only the given scenarios when asked", async () => {
    const own = await startModelServer({
      includeBuiltInScenarios: false,
      scenarios: { custom: { name: "custom", steps: [{ text: ["Custom ", "answer"] }] } },
    });
    try {
      expect(own.scenarioNames).toEqual(["custom"]);
      const result = streamText({
        model: createOpenAICompatible({ name: "own", baseURL: own.url }).chatModel("custom"),
        prompt: "Hi",
      });
      expect(await result.text).toBe("Custom answer");
    } finally {
      await own.close();
    }
  });
});
