import "server-only";
import {
  type JSONSchema7,
  type JSONValue,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  tool,
} from "ai";
import { z } from "zod";
import type { RunUsage } from "@/db/schema";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { logServerError } from "@/lib/log";
import { estimateCostUsd } from "@/lib/models/estimate-cost";
import type { EngineSink } from "../engine";
import { LoopGuard } from "../loop-guard";
import type { StreamTextTap } from "./coalesce-event-stream";
import { EarlyText } from "./early-text";
import { createEventLoopYielder } from "./event-loop-yielder";
import { nodeHttpFetch } from "./node-http-fetch";
import { RateLimitReached, rateLimitResetAt } from "@/lib/models/rate-limit";
import {
  type AgentTool,
  agentTools,
  type ToolContext,
  unparsedArgumentsKey,
  validateToolInput,
} from "./tools";

export interface NativeAgentInput {
  /**
   * Builds the run's model around the given fetch, through which every provider call must go, and
   * the tap that shows streamed text as it comes off the wire (see {@link EarlyText}).
   */
  createModel(options: { fetch: typeof globalThis.fetch; textTap: StreamTextTap }): LanguageModel;
  system: string;
  messages: ModelMessage[];
  context: ToolContext;
  sink: EngineSink;
  signal: AbortSignal;
  maxIterations: number;
  toolTimeoutMs: number;
  /** The run's model id, to price its usage, and the cost at which the run stops. */
  modelId: string;
  maxCostUsd: number;
}

export interface NativeAgentResult {
  text: string;
  usage: Omit<RunUsage, "total_cost_usd">;
  steps: number;
  hitIterationLimit: boolean;
}

/**
 * The native coding agent: the AI SDK tool loop over the run's overlay. Text streams out as
 * `assistant.delta`; every tool call becomes a `tool.started` and a `tool.completed`/`tool.failed`
 * pair. Tool input is validated by us, not by the SDK, so a bad call is answered with
 * TOOL_INPUT_VALIDATION_FAILED and the loop goes on instead of ending the run.
 */
export async function runNativeAgent(input: NativeAgentInput): Promise<NativeAgentResult> {
  const { sink: writer, context } = input;
  const watchdog = new ModelWatchdog(input.toolTimeoutMs, input.signal);
  const startedCalls = new Set<string>();
  const loopGuard = new LoopGuard();
  let stopReason: RunFailure | null = null;
  const spent = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const writeFileOpen = () => context.legacyWriteFileEnabled || context.writeFileUnlocked.size > 0;

  const imagesAccepted = providersAcceptingImages.has(input.modelId.split(":")[0] ?? "");
  const tools = Object.fromEntries(
    Object.values(agentTools).map((agentTool) => [
      agentTool.name,
      tool({
        description: agentTool.description,
        // No SDK-side validation: everything parseable reaches execute, which validates and explains.
        inputSchema: jsonSchema<unknown>(toolInputJsonSchema(agentTool)),
        // A tool output may carry an image (check_preview's screenshot): sent as an image to
        // providers that take images in tool results, left out for the others.
        toModelOutput: ({ output }: { output: unknown }) =>
          toolResultForModel(output, imagesAccepted),
        execute: async (rawInput: unknown, { toolCallId }: { toolCallId: string }) => {
          startedCalls.add(toolCallId);
          watchdog.pause();
          try {
            const verdict = loopGuard.check(agentTool.name, rawInput);
            if (verdict !== "run") {
              const message =
                verdict === "warn"
                  ? `You called ${agentTool.name} with exactly these arguments three times in a row and got the same answer. Do something different; one more identical call ends the run.`
                  : `The agent called ${agentTool.name} with the same arguments four times in a row, after being told it was repeating itself, so the run was stopped; nothing was changed.`;
              // The repeat still gets its row, failed with the reason.
              await writer.emit("tool.started", {
                call_id: toolCallId,
                tool: agentTool.name,
                title: humanToolName(agentTool.name),
              });
              await writer.emit("tool.failed", {
                call_id: toolCallId,
                tool: agentTool.name,
                code: runErrorCodes.loopDetected,
                message,
                diagnostics: [],
              });
              // A throw here would only become a tool error: the stream loop ends the run.
              if (verdict === "stop")
                stopReason = new RunFailure(runErrorCodes.loopDetected, message);
              return { error: { code: runErrorCodes.loopDetected, message } };
            }
            return await executeTool(agentTool, rawInput, toolCallId, input);
          } finally {
            watchdog.resume();
          }
        },
      }),
    ]),
  );

  let text = "";
  let stepCount = 0;
  let lastFinishReason: string | undefined;
  // The SDK waits between retries of a failed call (seconds, growing); that wait is ours, not a
  // model gone silent, so the watchdog stops counting from a failed answer to the next attempt.
  const providerFetch: typeof globalThis.fetch = async (request, init) => {
    watchdog.endRetryWait();
    const response = await nodeHttpFetch(request, init);
    if (response.status === 429) {
      // A limit that says when it resets pauses the run until then (see run-executor).
      const resetAt = rateLimitResetAt(response.headers);
      if (resetAt) {
        await response.body?.cancel().catch(() => undefined);
        throw new RateLimitReached(resetAt);
      }
    }
    if (!response.ok) watchdog.startRetryWait();
    return response;
  };
  // Text is shown as it comes off the wire; the SDK's later copy of it only fills `text` below.
  const earlyText = new EarlyText(
    (kind, text) => (kind === "text" ? writer.text(text) : writer.reasoning(text)),
    (detail) => logServerError("early text switched off for a run", new Error(detail)),
  );
  const result = streamText({
    model: input.createModel({ fetch: providerFetch, textTap: earlyText }),
    system: input.system,
    messages: input.messages,
    tools,
    abortSignal: watchdog.signal,
    maxRetries: 2,
    stopWhen: stepCountIs(input.maxIterations),
    prepareStep: () => ({
      activeTools: Object.keys(tools).filter((name) => name !== "write_file" || writeFileOpen()),
    }),
    // Arguments that are not JSON at all still reach our validator, which tells the model why.
    experimental_repairToolCall: async ({ toolCall, error }) => {
      if ((error as { name?: string }).name !== "AI_InvalidToolInputError") return null;
      return { ...toolCall, input: JSON.stringify({ [unparsedArgumentsKey]: toolCall.input }) };
    },
    // Errors arrive as `error` parts below and end the run there; the SDK's default handler
    // would also print them raw, and provider errors can echo secrets.
    onError: () => undefined,
    onStepFinish: (step) => {
      stepCount += 1;
      lastFinishReason = step.finishReason;
    },
  });

  const yieldTurn = createEventLoopYielder();
  try {
    for await (const part of result.fullStream) {
      // Awaited only when it yields: a bare `await` per part would cost a promise per delta.
      const turn = yieldTurn();
      if (turn) await turn;
      if (stopReason) throw stopReason;
      watchdog.touch();
      switch (part.type) {
        case "start-step":
          earlyText.startStep();
          break;
        case "text-delta":
          if (part.text) {
            text += part.text;
            const unseen = earlyText.unseen("text", part.text);
            if (unseen) writer.text(unseen);
          }
          break;
        case "reasoning-delta": {
          const unseen = part.text && earlyText.unseen("reasoning", part.text);
          if (unseen) writer.reasoning(unseen);
          break;
        }
        case "finish-step": {
          // The cost cap holds between steps too: usage is known once a step finishes.
          spent.inputTokens += part.usage.inputTokens ?? 0;
          spent.outputTokens += part.usage.outputTokens ?? 0;
          spent.cacheReadTokens += part.usage.inputTokenDetails?.cacheReadTokens ?? 0;
          spent.cacheWriteTokens += part.usage.inputTokenDetails?.cacheWriteTokens ?? 0;
          const cost = estimateCostUsd(input.modelId, {
            inputTokens: spent.inputTokens,
            outputTokens: spent.outputTokens,
            inputTokenDetails: {
              cacheReadTokens: spent.cacheReadTokens,
              cacheWriteTokens: spent.cacheWriteTokens,
            },
          });
          if (cost !== null && cost > input.maxCostUsd) {
            throw new RunFailure(
              runErrorCodes.budgetExceeded,
              `The run reached its cost cap: about $${cost.toFixed(2)} spent, more than the $${input.maxCostUsd.toFixed(2)} allowed (APPS_CODING_AGENT_MAX_COST_USD), so it was stopped; nothing was changed.`,
            );
          }
          break;
        }
        case "tool-error":
          // Calls the SDK refused before execute (an unknown tool name) still get a row.
          if (!startedCalls.has(part.toolCallId)) {
            startedCalls.add(part.toolCallId);
            await writer.emit("tool.started", {
              call_id: part.toolCallId,
              tool: part.toolName,
              title: part.toolName,
            });
            await writer.emit("tool.failed", {
              call_id: part.toolCallId,
              tool: part.toolName,
              code: "TOOL_NOT_FOUND",
              message: `There is no tool named ${part.toolName}.`,
              diagnostics: [],
            });
          }
          break;
        case "error":
          throw part.error;
        case "abort":
          throw watchdog.abortReason();
        default:
          break;
      }
    }
    if (stopReason) throw stopReason;
    // Deltas were stored in the background; surface a failed write before the run goes on.
    await writer.flush();
    const usage = await result.totalUsage;
    return {
      text,
      steps: stepCount,
      hitIterationLimit: stepCount >= input.maxIterations && lastFinishReason === "tool-calls",
      usage: {
        input_tokens: usage.inputTokens ?? 0,
        output_tokens: usage.outputTokens ?? 0,
        cache_read_input_tokens:
          usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0,
        cache_creation_input_tokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
      },
    };
  } catch (error) {
    if (watchdog.signal.aborted) throw watchdog.abortReason();
    throw error;
  } finally {
    watchdog.dispose();
  }
}

const toolInputJsonSchemas = new WeakMap<AgentTool, JSONSchema7>();

/**
 * The JSON schema the model sees for a tool's input. Converting the zod schema costs about a
 * millisecond per run for the whole tool set, and the schemas never change: convert once.
 */
function toolInputJsonSchema(agentTool: AgentTool): JSONSchema7 {
  let schema = toolInputJsonSchemas.get(agentTool);
  if (!schema) {
    schema = z.toJSONSchema(agentTool.inputSchema, {
      io: "input",
      unrepresentable: "any",
    }) as JSONSchema7;
    toolInputJsonSchemas.set(agentTool, schema);
  }
  return schema;
}

async function executeTool(
  agentTool: AgentTool,
  rawInput: unknown,
  callId: string,
  input: NativeAgentInput,
): Promise<unknown> {
  const { sink: writer } = input;
  const started = performance.now();
  const validated = validateToolInput(agentTool.inputSchema, rawInput);
  const title = validated.ok ? agentTool.title(validated.value) : humanToolName(agentTool.name);
  await writer.emit("tool.started", { call_id: callId, tool: agentTool.name, title });
  if (!validated.ok) {
    await writer.emit("tool.failed", {
      call_id: callId,
      tool: agentTool.name,
      code: runErrorCodes.toolInputValidation,
      message: validated.message,
      fields: validated.fields,
      diagnostics: [],
      duration_ms: Math.round(performance.now() - started),
    });
    return {
      error: {
        code: runErrorCodes.toolInputValidation,
        message: validated.message,
        fields: validated.fields,
      },
    };
  }
  let outcome: Awaited<ReturnType<AgentTool["execute"]>>;
  // Aborted at the time limit or when the run stops, so a tool's own work (a patch on its worker
  // thread) ends too instead of running on behind a settled promise.
  const call = new AbortController();
  const stopCall = () => call.abort(input.signal.reason);
  input.signal.addEventListener("abort", stopCall, { once: true });
  try {
    outcome = await withTimeout(
      agentTool.execute(validated.value, input.context, call.signal),
      input.toolTimeoutMs,
      input.signal,
      call,
    );
  } catch (error) {
    const timedOut = error instanceof ToolTimeoutError;
    const code = timedOut ? runErrorCodes.toolTimeout : "TOOL_EXECUTION_FAILED";
    const message = timedOut
      ? `${agentTool.name} did not finish within ${Math.round(input.toolTimeoutMs / 1000)} s.`
      : `${agentTool.name} failed unexpectedly.`;
    if (!timedOut) logServerError(`tool ${agentTool.name} failed`, error);
    if (input.signal.aborted) throw error;
    await writer.emit("tool.failed", {
      call_id: callId,
      tool: agentTool.name,
      code,
      message,
      diagnostics: [],
      duration_ms: Math.round(performance.now() - started),
    });
    return { error: { code, message } };
  } finally {
    input.signal.removeEventListener("abort", stopCall);
  }
  const duration = Math.round(performance.now() - started);
  if (outcome.ok) {
    await writer.emit("tool.completed", {
      call_id: callId,
      tool: agentTool.name,
      title,
      summary: outcome.summary,
      duration_ms: duration,
      ...outcome.details,
    });
  } else {
    // Tools put their diagnostics (patch failures, build errors) among their details as records.
    const { diagnostics = [], ...details } = (outcome.details ?? {}) as {
      diagnostics?: Record<string, unknown>[];
    };
    await writer.emit("tool.failed", {
      call_id: callId,
      tool: agentTool.name,
      title,
      code: outcome.code,
      message: outcome.message,
      diagnostics,
      duration_ms: duration,
      ...details,
    });
  }
  return outcome.output;
}

function humanToolName(name: string): string {
  return name.replace(/_/g, " ").replace(/^./, (first) => first.toUpperCase());
}

class ToolTimeoutError extends Error {}

async function withTimeout<Value>(
  promise: Promise<Value>,
  milliseconds: number,
  signal: AbortSignal,
  call: AbortController,
): Promise<Value> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const timeout = new ToolTimeoutError();
          call.abort(timeout);
          reject(timeout);
        }, milliseconds);
        onAbort = () => reject(signal.reason ?? new Error("aborted"));
        signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/**
 * Aborts the model call when the run is cancelled, or when the model sends nothing for the
 * tool-time limit (a hung stream) — paused while our own tools run, which have their own limit.
 */
class ModelWatchdog {
  private readonly controller = new AbortController();
  /** One timer re-armed for the remaining time, not one per stream part: a burst has thousands. */
  private timer: NodeJS.Timeout | undefined;
  private lastActivity = performance.now();
  private paused = 0;
  private waitingForRetry = false;
  private reason: unknown;
  private readonly onParentAbort = () => this.abort(this.parent.reason);

  constructor(
    private readonly idleMs: number,
    private readonly parent: AbortSignal,
  ) {
    if (parent.aborted) this.abort(parent.reason);
    else parent.addEventListener("abort", this.onParentAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    this.lastActivity = performance.now();
    if (this.timer || this.paused > 0 || this.controller.signal.aborted) return;
    this.arm(this.idleMs);
  }

  pause(): void {
    this.paused += 1;
    this.disarm();
  }

  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    this.touch();
  }

  /** A provider call failed; the SDK may now wait before it tries again. */
  startRetryWait(): void {
    if (this.waitingForRetry) return;
    this.waitingForRetry = true;
    this.pause();
  }

  /** A provider call starts: from here on, silence is the model's again. */
  endRetryWait(): void {
    if (!this.waitingForRetry) return;
    this.waitingForRetry = false;
    this.resume();
  }

  abortReason(): unknown {
    return this.reason ?? new Error("aborted");
  }

  dispose(): void {
    this.disarm();
    this.parent.removeEventListener("abort", this.onParentAbort);
  }

  private arm(milliseconds: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.paused > 0 || this.controller.signal.aborted) return;
      const silentFor = performance.now() - this.lastActivity;
      if (silentFor < this.idleMs) {
        this.arm(this.idleMs - silentFor);
        return;
      }
      this.abort(
        new RunFailure(
          runErrorCodes.modelTimeout,
          `The model sent nothing for ${Math.round(this.idleMs / 1000)} s, so the run was stopped.`,
        ),
      );
    }, milliseconds);
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private abort(reason: unknown): void {
    if (this.controller.signal.aborted) return;
    this.reason = reason;
    this.disarm();
    this.controller.abort(reason);
  }
}

/** Providers whose chat models take images in tool results; OpenAI-compatible ones may not. */
const providersAcceptingImages = new Set(["openai", "anthropic", "google"]);

type ModelToolOutput =
  | { type: "json"; value: JSONValue }
  | {
      type: "content";
      value: (
        | { type: "text"; text: string }
        | { type: "image-data"; data: string; mediaType: string }
      )[];
    };

/** The tool's output as the model gets it: JSON, with an `image` split out as an image part. */
export function toolResultForModel(output: unknown, imagesAccepted: boolean): ModelToolOutput {
  if (output === null || typeof output !== "object" || !("image" in output)) {
    return { type: "json", value: (output ?? null) as JSONValue };
  }
  const { image, ...rest } = output as { image?: { data: string; mediaType: string } | null };
  if (!image || !imagesAccepted) return { type: "json", value: rest as JSONValue };
  return {
    type: "content",
    value: [
      { type: "text", text: JSON.stringify(rest) },
      { type: "image-data", data: image.data, mediaType: image.mediaType },
    ],
  };
}
