import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type AnthropicMessagesRequest,
  anthropicClosingEvents,
  anthropicContentEvents,
  anthropicMessageBody,
  anthropicMessagesRequestSchema,
  describeAnthropicStepContext,
} from "./anthropic-messages";
import {
  type ChatCompletionRequest,
  chatCompletionRequestSchema,
  describeStepContext,
} from "./chat-request";
import { checkExpectation } from "./check-expectation";
import { closingChunks, completionBody, contentChunks } from "./completion-chunks";
import { loadScenarioDirectory } from "./load-scenario-directory";
import { planAnswer } from "./plan-answer";
import {
  responsesBody,
  responsesClosingEvents,
  responsesContentEvents,
  responsesFrame,
} from "./responses-events";
import {
  describeResponsesStepContext,
  type ResponsesRequest,
  responsesRequestSchema,
} from "./responses-request";
import { finalStep, type Scenario, type Step, type StepContext } from "./scenario";
import { builtInScenarios } from "./scenarios";

export interface ModelServerOptions {
  /** 0 (the default) picks a free port. The server binds 127.0.0.1 only. */
  port?: number;
  /** Scenarios by name (the request's `model`); they override files and built-ins of that name. */
  scenarios?: Record<string, Scenario>;
  /** A folder of `*.json` scenario files, loaded on top of the built-ins. */
  scenarioDir?: string;
  /** Set false to serve only the scenarios given here. */
  includeBuiltInScenarios?: boolean;
  /** Called with one line per request, for the command line. */
  log?: (line: string) => void;
  /**
   * When set, every request must carry this key (as a bearer token, `x-api-key` or
   * `x-goog-api-key`); others get 401, as a provider answers a wrong key.
   */
  requireApiKey?: string;
}

/** One request the server received, for tests to assert on. */
export interface RecordedRequest {
  method: string;
  path: string;
  receivedAt: number;
  /** The HTTP status answered (200 also for a stream that then hangs). */
  status: number;
  model?: string;
  stepIndex?: number;
  offeredTools?: string[];
  /** The parsed chat completion request. */
  body?: ChatCompletionRequest;
  /** The parsed Responses API request (`POST /v1/responses`). */
  responsesBody?: ResponsesRequest;
  /** The parsed Anthropic Messages request (`POST /v1/messages`). */
  anthropicBody?: AnthropicMessagesRequest;
  /** Set when the step's `expect` did not hold; the answer was an error saying so. */
  expectationFailure?: string;
  /** The key the request carried (bearer token or a provider's key header), if any. */
  apiKey?: string;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT/v1`, the base URL an OpenAI-compatible client wants. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  scenarioNames: string[];
  /** Stops the server, cutting hanging streams. */
  close(): Promise<void>;
}

const maximumBodyBytes = 20 * 1024 * 1024;

/**
 * A scripted OpenAI-compatible model for tests and `npm run dev:model`: the request's `model`
 * names a scenario, and the step is chosen statelessly from the request's messages (see
 * `selectStepIndex`). Serves `POST /v1/chat/completions` (SSE or JSON), `POST /v1/responses`
 * (the Responses API, for Codex: SSE events or one response object), `GET /v1/models`, and
 * `GET /api/tags` so it can also stand in for a local Ollama.
 */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const scenarios: Record<string, Scenario> = {
    ...(options.includeBuiltInScenarios === false ? {} : builtInScenarios()),
    ...(options.scenarioDir ? loadScenarioDirectory(options.scenarioDir) : {}),
    ...options.scenarios,
  };
  const requests: RecordedRequest[] = [];
  // Error attempts per step of one conversation, so "429 then success" survives statelessness.
  const failedAttempts = new Map<string, number>();

  const server = createServer({ noDelay: true }, (request, response) => {
    const record: RecordedRequest = {
      method: request.method ?? "GET",
      path: (request.url ?? "/").split("?")[0] ?? "/",
      receivedAt: Date.now(),
      status: 0,
    };
    const bearer = request.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    const keyHeader = request.headers["x-api-key"] ?? request.headers["x-goog-api-key"];
    record.apiKey = bearer ?? (typeof keyHeader === "string" ? keyHeader : undefined);
    requests.push(record);
    if (options.requireApiKey !== undefined && record.apiKey !== options.requireApiKey) {
      sendError(response, record, 401, "Incorrect API key provided.");
      return;
    }
    handle({ request, response, record, scenarios, failedAttempts })
      .catch((error: unknown) => {
        if (!response.headersSent) {
          sendError(response, record, 500, `Scripted model server error: ${String(error)}`);
        } else response.destroy();
      })
      .finally(() => {
        options.log?.(
          `${record.method} ${record.path}${record.model ? ` model=${record.model}` : ""}` +
            `${record.stepIndex === undefined ? "" : ` step=${record.stepIndex}`} → ${record.status}` +
            `${record.expectationFailure ? ` (${record.expectationFailure})` : ""}`,
        );
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    scenarioNames: Object.keys(scenarios),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle({
  request,
  response,
  record,
  scenarios,
  failedAttempts,
}: {
  request: IncomingMessage;
  response: ServerResponse;
  record: RecordedRequest;
  scenarios: Record<string, Scenario>;
  failedAttempts: Map<string, number>;
}): Promise<void> {
  const route = `${record.method} ${record.path.replace(/\/+$/, "")}`;
  if (route === "GET /v1/models") {
    const created = Math.floor(Date.now() / 1000);
    const data = Object.keys(scenarios).map((id) => ({
      id,
      object: "model",
      created,
      owned_by: "patchwork-scripted",
    }));
    return sendJson(response, record, 200, { object: "list", data });
  }
  if (route === "GET /api/tags") {
    const models = Object.keys(scenarios).map((name) => ({ name, model: name, size: 0 }));
    return sendJson(response, record, 200, { models });
  }
  let request_: ParsedModelRequest;
  if (route === "POST /v1/chat/completions") {
    const parsed = chatCompletionRequestSchema.safeParse(await readJson(request));
    if (!parsed.success) {
      return sendError(
        response,
        record,
        400,
        `Invalid chat completion request: ${parsed.error.message}`,
      );
    }
    record.body = parsed.data;
    request_ = {
      format: "chat",
      model: parsed.data.model,
      stream: parsed.data.stream === true,
      includeUsage: parsed.data.stream_options?.include_usage === true,
      context: describeStepContext(parsed.data),
      conversation: parsed.data.messages,
      customTools: new Set(),
    };
  } else if (route === "POST /v1/responses") {
    const parsed = responsesRequestSchema.safeParse(await readJson(request));
    if (!parsed.success) {
      return sendError(response, record, 400, `Invalid responses request: ${parsed.error.message}`);
    }
    record.responsesBody = parsed.data;
    request_ = {
      format: "responses",
      model: parsed.data.model,
      stream: parsed.data.stream === true,
      includeUsage: true,
      context: describeResponsesStepContext(parsed.data),
      conversation: parsed.data.input,
      customTools: new Set(
        (parsed.data.tools ?? []).flatMap((tool) =>
          tool.type === "custom" && tool.name ? [tool.name] : [],
        ),
      ),
    };
  } else if (route === "POST /v1/messages") {
    const parsed = anthropicMessagesRequestSchema.safeParse(await readJson(request));
    if (!parsed.success) {
      return sendError(response, record, 400, `Invalid messages request: ${parsed.error.message}`);
    }
    record.anthropicBody = parsed.data;
    request_ = {
      format: "anthropic",
      model: parsed.data.model,
      stream: parsed.data.stream === true,
      includeUsage: true,
      context: describeAnthropicStepContext(parsed.data),
      conversation: parsed.data.messages,
      customTools: new Set(),
    };
  } else {
    return sendError(response, record, 404, `No route ${route} on the scripted model server.`);
  }
  record.model = request_.model;
  const scenario = scenarios[request_.model];
  if (!scenario || !Object.hasOwn(scenarios, request_.model)) {
    const known = Object.keys(scenarios).join(", ");
    return sendError(
      response,
      record,
      404,
      `Unknown scenario "${request_.model}". Known: ${known}.`,
      { code: "model_not_found" },
    );
  }

  const { context } = request_;
  record.stepIndex = context.stepIndex;
  record.offeredTools = context.offeredTools;
  const scripted = scenario.steps[context.stepIndex] ?? finalStep;
  const step: Step = typeof scripted === "function" ? scripted(context) : scripted;
  const toolsOffered = context.offeredTools.length > 0;

  // Expectations concern the agent's tool loop; side requests without tools are exempt.
  const problem = toolsOffered ? checkExpectation(step.expect, context) : null;
  if (problem) {
    record.expectationFailure = problem;
    return sendError(
      response,
      record,
      400,
      `Scripted expectation failed (scenario ${scenario.name}, step ${context.stepIndex}): ${problem}`,
      { type: "scripted_expectation_failed" },
    );
  }

  const closed = new AbortController();
  response.on("close", () => closed.abort());
  if (step.delay_ms_before && !(await pause(step.delay_ms_before, closed.signal))) return;

  if (step.status !== undefined) {
    const attemptKey = createHash("sha256")
      .update(
        JSON.stringify(
          step.status_scope === "model"
            ? [request_.model, context.stepIndex]
            : [request_.model, context.stepIndex, request_.conversation],
        ),
      )
      .digest("hex");
    const attempts = failedAttempts.get(attemptKey) ?? 0;
    if (step.status_attempts === undefined || attempts < step.status_attempts) {
      failedAttempts.set(attemptKey, attempts + 1);
      return sendError(
        response,
        record,
        step.status,
        step.error_message ?? defaultErrorMessage(step.status),
        {
          retryAfterSeconds: step.retry_after_s,
        },
      );
    }
    // The next identical conversation starts failing again, as a fresh run would see.
    failedAttempts.delete(attemptKey);
  }

  const answer = planAnswer(step, {
    stepIndex: context.stepIndex,
    promptCharacters: JSON.stringify(request_.conversation).length,
    toolsOffered,
  });
  const identity = {
    id: `${{ chat: "chatcmpl", responses: "resp", anthropic: "msg" }[request_.format]}-scripted-${randomUUID()}`,
    created: Math.floor(Date.now() / 1000),
    model: request_.model,
  };

  if (!request_.stream) {
    if (step.hang) {
      record.status = 200;
      return; // Never answers; the response closes with the client or the server.
    }
    const whole =
      request_.format === "chat"
        ? completionBody(answer, identity)
        : request_.format === "responses"
          ? responsesBody(answer, identity, request_.customTools)
          : anthropicMessageBody(answer, identity);
    return sendJson(response, record, 200, whole);
  }

  record.status = 200;
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
  const delay = step.delay_ms_between_chunks ?? 0;
  const frames: string[] = [];
  if (request_.format === "chat") {
    const chunks = contentChunks(answer, identity);
    if (!step.hang) {
      chunks.push(...closingChunks(answer, identity, { includeUsage: request_.includeUsage }));
    }
    frames.push(...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`));
    if (!step.hang) frames.push("data: [DONE]\n\n");
  } else if (request_.format === "anthropic") {
    const events = anthropicContentEvents(answer, identity);
    const blocks = (answer.reasoning.length > 0 ? 1 : 0) + (answer.text.length > 0 ? 1 : 0);
    if (!step.hang) events.push(...anthropicClosingEvents(answer, blocks));
    frames.push(
      ...events.map(({ event, data }) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    );
  } else {
    const events = responsesContentEvents(answer, identity);
    if (!step.hang) events.push(...responsesClosingEvents(answer, identity, request_.customTools));
    frames.push(...events.map(responsesFrame));
  }

  for (const [index, frame] of frames.entries()) {
    if (index > 0 && delay > 0 && !(await pause(delay, closed.signal))) return;
    if (!(await write(response, frame, closed.signal))) return;
  }
  if (step.hang) return; // Headers and any content sent; the stream now stays open, silent.
  response.end();
}

/** What the step logic needs of a request, whichever wire format it came in. */
interface ParsedModelRequest {
  format: "chat" | "responses" | "anthropic";
  model: string;
  stream: boolean;
  includeUsage: boolean;
  context: StepContext;
  /** What identifies the conversation, for counting failed attempts at a step. */
  conversation: unknown;
  /** Freeform (custom) tools of a Responses request, such as Codex's apply_patch. */
  customTools: ReadonlySet<string>;
}

function defaultErrorMessage(status: number): string {
  if (status === 429)
    return "Rate limit reached for the scripted model; retry after the given delay.";
  if (status >= 500) return "The scripted model server failed on purpose.";
  return `The scripted model server answered ${status} on purpose.`;
}

function errorType(status: number): string {
  if (status === 429) return "rate_limit_exceeded";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function sendError(
  response: ServerResponse,
  record: RecordedRequest,
  status: number,
  message: string,
  {
    type,
    code,
    retryAfterSeconds,
  }: { type?: string; code?: string; retryAfterSeconds?: number } = {},
): void {
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) {
    headers["retry-after"] = String(Math.ceil(retryAfterSeconds));
    headers["retry-after-ms"] = String(Math.round(retryAfterSeconds * 1000));
  }
  const error = { message, type: type ?? errorType(status), param: null, code: code ?? null };
  sendJson(response, record, status, { error }, headers);
}

function sendJson(
  response: ServerResponse,
  record: RecordedRequest,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  record.status = status;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maximumBodyBytes) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Waits unless the client goes away first; false when it did. */
async function pause(milliseconds: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(milliseconds, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Writes with backpressure; false when the client went away. */
async function write(
  response: ServerResponse,
  frame: string,
  signal: AbortSignal,
): Promise<boolean> {
  if (signal.aborted || response.destroyed) return false;
  if (response.write(frame)) return true;
  return new Promise((resolve) => {
    const onDrain = () => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    };
    const onAbort = () => {
      response.off("drain", onDrain);
      resolve(false);
    };
    response.once("drain", onDrain);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
