import "server-only";
import { RateLimitReached, rateLimitResetAt } from "@/lib/models/rate-limit";
import path from "node:path";
import {
  createOpencodeClient,
  type Event,
  type OpencodeClient,
  type Part,
} from "@opencode-ai/sdk/v2/client";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { estimateCostUsd } from "@/lib/models/estimate-cost";
import { promptWithConversation } from "../compacted-conversation";
import type { ApprovalDecision, EngineResult, EngineRunInput, EngineSink } from "../engine";
import { OrderedSink } from "../ordered-sink";
import { type OpencodeServer, opencodeProviderId } from "./opencode-server";

/** How long OpenCode gets to go idle after an abort before the run ends without it. */
export const abortGraceMs = 5_000;

type Tokens = { input: number; output: number; cacheRead: number; cacheWrite: number };

/**
 * One OpenCode turn through its SDK: a session for the run's folder (the app's earlier one when
 * it still exists), the prompt, and the event stream mapped onto the sink — text and reasoning
 * deltas, one tool row per tool part, `permission.asked` as approval cards, tokens and cost —
 * until the session goes idle. Stop aborts the session and waits up to {@link abortGraceMs} for it
 * to go idle; either way the run ends with nothing committed.
 */
export class OpencodeSession {
  private readonly client: OpencodeClient;
  private sessionId: string | null = null;
  private readonly assistantMessages = new Set<string>();
  private readonly userMessages = new Set<string>();
  /** Deltas of parts whose message's role is not known yet. */
  private readonly heldDeltas = new Map<
    string,
    { messageId: string; field: string; delta: string }[]
  >();
  private readonly partKinds = new Map<string, "text" | "reasoning">();
  private readonly streamedLength = new Map<string, number>();
  private readonly startedTools = new Set<string>();
  private readonly endedTools = new Set<string>();
  private readonly tokensByMessage = new Map<string, Tokens & { cost: number }>();
  private finalText = "";
  private lastUsageKey = "";
  private lastTextMessageId: string | null = null;
  private busySeen = false;
  /** OpenCode's events in the order it sent them. */
  private readonly ordered: OrderedSink;
  private idle!: () => void;
  private failed!: (error: Error) => void;
  private readonly turnEnded: Promise<void>;

  constructor(
    private readonly server: OpencodeServer,
    private readonly input: EngineRunInput,
    private readonly sink: EngineSink,
    private readonly folder: string,
  ) {
    this.ordered = new OrderedSink(sink);
    this.client = createOpencodeClient({
      baseUrl: server.baseUrl,
      directory: folder,
      headers: { authorization: server.authorization },
    });
    this.turnEnded = new Promise<void>((resolve, reject) => {
      this.idle = resolve;
      this.failed = reject;
    });
    this.turnEnded.catch(() => {});
  }

  async run(): Promise<EngineResult> {
    const { input } = this;
    const events = new AbortController();
    const stopped = new Promise<never>((_, reject) => {
      const stop = () => reject(new Stopped());
      if (input.signal.aborted) stop();
      else input.signal.addEventListener("abort", stop, { once: true });
    });
    stopped.catch(() => {});
    const died = this.server.exited.then(() => {
      throw new RunFailure(
        runErrorCodes.engineCrashed,
        "OpenCode's server stopped in the middle of the turn; nothing was changed. The next run starts a new one.",
      );
    });
    died.catch(() => {});
    const until = <T>(work: Promise<T>) => Promise.race([work, stopped, died]);
    try {
      const { sessionId, prompt } = await until(this.openSession());
      this.sessionId = sessionId;
      await this.sink.recordEngineRunRef(sessionId);
      await until(this.subscribe(events.signal));
      const sent = await until(
        this.client.session.promptAsync({
          sessionID: sessionId,
          directory: this.folder,
          model: { providerID: opencodeProviderId, modelID: input.model.name },
          parts: [{ type: "text", text: prompt }],
        }),
      );
      if (sent.error) throw new Error(`OpenCode refused the prompt: ${describeError(sent.error)}`);
      await until(this.turnEnded);
      await this.ordered.settled();
      return { text: this.finalText, usage: this.usage(), hitIterationLimit: false };
    } catch (error) {
      if (error instanceof Stopped || input.signal.aborted) return this.abort();
      throw error;
    } finally {
      events.abort();
    }
  }

  private async openSession(): Promise<{ sessionId: string; prompt: string }> {
    const { input } = this;
    if (input.resumeRef) {
      const existing = await this.client.session.get({
        sessionID: input.resumeRef,
        directory: this.folder,
      });
      // A session is bound to its folder; one from another folder (another server process, or
      // before a restart) cannot work in this one.
      if (existing.data && existing.data.directory === this.folder) {
        return { sessionId: existing.data.id, prompt: input.input };
      }
      await this.emit("notice", {
        kind: "engine_session_reset",
        message:
          "OpenCode could not continue its earlier session for this app, so it started a new one with a summary of it.",
        data: {
          engine: "opencode",
          reason: existing.data
            ? "the session belongs to another folder"
            : describeError(existing.error).slice(0, 300),
        },
      });
    }
    const created = await this.client.session.create({ directory: this.folder });
    if (!created.data)
      throw new Error(`OpenCode could not create a session: ${describeError(created.error)}`);
    return { sessionId: created.data.id, prompt: promptWithConversation(input) };
  }

  /** Opens the event stream; the returned promise resolves once the server says it is connected. */
  private async subscribe(signal: AbortSignal): Promise<void> {
    const subscription = await this.client.event.subscribe({ directory: this.folder }, { signal });
    let connected!: () => void;
    const isConnected = new Promise<void>((resolve) => {
      connected = resolve;
    });
    void (async () => {
      try {
        for await (const event of subscription.stream) {
          if ((event as { type?: string }).type === "server.connected") connected();
          this.onEvent(event as Event);
        }
      } catch (error) {
        if (!signal.aborted) this.failed(error as Error);
      }
    })();
    // Some versions send no greeting: a short grace still orders the prompt after the subscribe.
    return Promise.race([isConnected, new Promise<void>((resolve) => setTimeout(resolve, 300))]);
  }

  /** Aborts the session and waits (≤ abortGraceMs) until OpenCode reports it idle. Always throws. */
  private async abort(): Promise<never> {
    const reason = this.input.signal.reason;
    const sessionId = this.sessionId;
    if (sessionId) {
      const deadline = Date.now() + abortGraceMs;
      const answer = await this.client.session
        .abort(
          { sessionID: sessionId, directory: this.folder },
          { signal: AbortSignal.timeout(abortGraceMs) },
        )
        .catch(() => null);
      // The status list is the reliable answer: an idle session is absent from it or "idle".
      let idle = false;
      while (answer?.data === true && !idle && Date.now() < deadline) {
        const status = await this.client.session
          .status({ directory: this.folder }, { signal: AbortSignal.timeout(1_000) })
          .catch(() => null);
        const state = status?.data?.[sessionId];
        idle = status?.data !== undefined && (!state || state.type === "idle");
        if (!idle) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!idle) {
        console.warn(
          `[patchwork] opencode: session ${sessionId} did not go idle within ${abortGraceMs / 1000} s of the abort; the run ends without it`,
        );
      }
    }
    throw reason;
  }

  private usage(): EngineResult["usage"] {
    const total = this.totalTokens();
    return {
      input_tokens: total.input + total.cacheRead + total.cacheWrite,
      output_tokens: total.output,
      cache_read_input_tokens: total.cacheRead,
      cache_creation_input_tokens: total.cacheWrite,
      total_cost_usd: null,
    };
  }

  private totalTokens(): Tokens & { cost: number } {
    const total = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
    for (const tokens of this.tokensByMessage.values()) {
      total.input += tokens.input;
      total.output += tokens.output;
      total.cacheRead += tokens.cacheRead;
      total.cacheWrite += tokens.cacheWrite;
      total.cost += tokens.cost;
    }
    return total;
  }

  private emit(...args: Parameters<EngineSink["emit"]>): Promise<void> {
    return this.ordered.emit(...args);
  }

  private text(kind: "text" | "reasoning", text: string, messageId: string): void {
    if (!text) return;
    let delta = text;
    if (kind === "text") {
      // Each assistant message (one per step of its loop) is a paragraph of its own.
      if (this.finalText && messageId !== this.lastTextMessageId) delta = `\n\n${text}`;
      this.lastTextMessageId = messageId;
      this.finalText += delta;
    }
    this.ordered.text(kind, delta);
  }

  private onEvent(event: Event): void {
    const properties = (event as { properties?: { sessionID?: string } }).properties;
    if (!this.sessionId || properties?.sessionID !== this.sessionId) return;
    switch (event.type) {
      case "message.updated": {
        const info = event.properties.info;
        if (info.role === "user") {
          this.userMessages.add(info.id);
          this.heldDeltas.delete(info.id);
          return;
        }
        this.busySeen = true;
        if (!this.assistantMessages.has(info.id)) {
          this.assistantMessages.add(info.id);
          for (const held of this.heldDeltas.get(info.id) ?? []) this.onDelta(held);
          this.heldDeltas.delete(info.id);
        }
        this.tokensByMessage.set(info.id, {
          input: info.tokens.input,
          output: info.tokens.output,
          cacheRead: info.tokens.cache.read,
          cacheWrite: info.tokens.cache.write,
          cost: info.cost,
        });
        if (info.time.completed) this.emitUsage();
        return;
      }
      case "message.part.delta": {
        const { messageID, partID, field, delta } = event.properties;
        if (this.userMessages.has(messageID)) return;
        if (!this.assistantMessages.has(messageID)) {
          const held = this.heldDeltas.get(messageID) ?? [];
          held.push({ messageId: messageID, field, delta: `${partID}\u0000${delta}` });
          this.heldDeltas.set(messageID, held);
          return;
        }
        this.onDelta({ messageId: messageID, field, delta: `${partID}\u0000${delta}` });
        return;
      }
      case "message.part.updated":
        this.onPart(event.properties.part);
        return;
      case "permission.asked":
        void this.onPermission(event.properties);
        return;
      case "session.status":
        if (event.properties.status.type === "busy") this.busySeen = true;
        else if (event.properties.status.type === "idle" && this.busySeen) this.idle();
        else if (event.properties.status.type === "retry") {
          void this.emit("notice", {
            kind: "engine_retrying",
            message: `OpenCode is retrying (attempt ${event.properties.status.attempt}): ${event.properties.status.message.slice(0, 300)}`,
          });
        }
        return;
      case "session.idle":
        if (this.busySeen) this.idle();
        return;
      case "session.error": {
        if (this.input.signal.aborted) return;
        const error = event.properties.error;
        const message =
          (error as { data?: { message?: string } } | undefined)?.data?.message ??
          (error as { name?: string } | undefined)?.name ??
          "unknown error";
        const resetAt = rateLimitResetOf(error);
        if (resetAt) {
          // A known reset pauses the run until then (the executor finds this cause).
          this.failed(
            new RunFailure(
              runErrorCodes.rateLimited,
              `OpenCode hit its provider's rate limit; it resets at ${resetAt.toISOString()}. Nothing was changed.`,
              { cause: new RateLimitReached(resetAt) },
            ),
          );
          return;
        }
        this.failed(
          new RunFailure(
            runErrorCodes.modelError,
            `OpenCode could not finish: ${message.slice(0, 500)}`,
          ),
        );
        return;
      }
      default:
        return;
    }
  }

  private onDelta(held: { messageId: string; field: string; delta: string }): void {
    const separator = held.delta.indexOf("\u0000");
    const partId = held.delta.slice(0, separator);
    const delta = held.delta.slice(separator + 1);
    if (held.field !== "text") return;
    const kind = this.partKinds.get(partId) ?? "text";
    this.streamedLength.set(partId, (this.streamedLength.get(partId) ?? 0) + delta.length);
    this.text(kind, delta, held.messageId);
  }

  private onPart(part: Part): void {
    if (this.userMessages.has(part.messageID)) return;
    if (part.type === "text" || part.type === "reasoning") {
      if (part.type === "text" && (part.synthetic || part.ignored)) return;
      this.partKinds.set(part.id, part.type);
      // A part that arrives whole (no deltas) is streamed here, once.
      const streamed = this.streamedLength.get(part.id) ?? 0;
      if (this.assistantMessages.has(part.messageID) && part.text.length > streamed) {
        this.streamedLength.set(part.id, part.text.length);
        this.text(
          part.type === "text" ? "text" : "reasoning",
          part.text.slice(streamed),
          part.messageID,
        );
      }
      return;
    }
    if (part.type !== "tool") return;
    const { state, callID, tool } = part;
    const input = (state.input ?? {}) as Record<string, unknown>;
    const files = this.filesOf(input);
    const title = ("title" in state && state.title) || this.toolTitle(tool, input);
    if (!this.startedTools.has(callID)) {
      this.startedTools.add(callID);
      this.sink.noteToolCall(tool, input);
      void this.emit("tool.started", {
        call_id: callID,
        tool,
        title,
        ...(files.length ? { files } : {}),
      });
    }
    if (this.endedTools.has(callID)) return;
    if (state.status === "completed") {
      this.endedTools.add(callID);
      void this.emit("tool.completed", {
        call_id: callID,
        tool,
        title,
        summary: summarize(state.output),
        duration_ms: state.time.end - state.time.start,
        ...(files.length && isEditTool(tool) ? { files } : {}),
      });
    } else if (state.status === "error") {
      this.endedTools.add(callID);
      const declined = /reject|denied|declin/i.test(state.error);
      void this.emit("tool.failed", {
        call_id: callID,
        tool,
        title,
        code: declined ? runErrorCodes.toolDeclined : runErrorCodes.toolExecutionFailed,
        message: declined ? "The change was declined." : summarize(state.error),
        diagnostics: [],
        duration_ms: state.time.end - state.time.start,
      });
    }
  }

  private async onPermission(request: {
    id: string;
    permission: string;
    patterns: string[];
    metadata: Record<string, unknown>;
  }): Promise<void> {
    await this.ordered.settled();
    const metadata = request.metadata;
    const filePath =
      typeof metadata.filepath === "string"
        ? metadata.filepath
        : typeof metadata.filePath === "string"
          ? metadata.filePath
          : null;
    const command = typeof metadata.command === "string" ? metadata.command : null;
    const isEdit = request.permission === "edit";
    const relative = filePath ? this.relative(filePath) : null;
    let decision: ApprovalDecision;
    try {
      decision = await this.sink.requestApproval(
        isEdit
          ? {
              kind: "file_change",
              description: relative ? `Edit ${relative}` : "Change files",
              context: {
                ...(typeof metadata.diff === "string"
                  ? { diff: this.relativeDiff(metadata.diff) }
                  : {}),
                paths: relative ? [relative] : [],
              },
            }
          : request.permission === "bash"
            ? {
                kind: "command",
                description: `Run \`${(command ?? request.patterns.join(" ")).slice(0, 200)}\``,
                context: { command: command ?? request.patterns.join(" "), cwd: "." },
              }
            : {
                kind: "permission",
                description: `Allow ${request.permission} (${request.patterns.join(", ").slice(0, 200)})`,
                context: { paths: request.patterns },
              },
      );
    } catch {
      decision = "decline";
    }
    await this.client.permission.reply({
      requestID: request.id,
      directory: this.folder,
      reply:
        decision === "accept" ? "once" : decision === "accept_for_session" ? "always" : "reject",
    });
  }

  private emitUsage(): void {
    const total = this.totalTokens();
    // OpenCode repeats a finished message's update; usage is sent once per change.
    const key = JSON.stringify(total);
    if (key === this.lastUsageKey) return;
    this.lastUsageKey = key;
    const ours = estimateCostUsd(this.input.model.id, {
      inputTokens: total.input + total.cacheRead + total.cacheWrite,
      outputTokens: total.output,
      inputTokenDetails: { cacheReadTokens: total.cacheRead, cacheWriteTokens: total.cacheWrite },
    });
    void this.emit("usage", {
      ...this.usage(),
      total_cost_usd: ours ?? (total.cost > 0 ? total.cost : null),
    });
  }

  private filesOf(input: Record<string, unknown>): string[] {
    const file = input.filePath ?? input.filepath ?? input.path;
    return typeof file === "string" ? [this.relative(file)] : [];
  }

  private toolTitle(tool: string, input: Record<string, unknown>): string {
    const [file] = this.filesOf(input);
    if (tool === "bash" && typeof input.command === "string")
      return `Run \`${input.command.slice(0, 120)}\``;
    if (file && isEditTool(tool)) return `Edit ${file}`;
    if (file && tool === "read") return `Read ${file}`;
    return file ? `${tool} ${file}` : tool;
  }

  /** OpenCode's diffs name files by their absolute path in our run folder: show app paths. */
  private relativeDiff(diff: string): string {
    return diff
      .split("\n")
      .filter((line) => !line.startsWith("Index: ") && !/^=+$/.test(line))
      .map((line) => {
        const header = line.match(/^(---|\+\+\+) (\S.*)$/);
        if (!header) return line;
        const file = header[2] === "/dev/null" ? null : this.relative(header[2]);
        return `${header[1]} ${file ? `${header[1] === "---" ? "a" : "b"}/${file}` : "/dev/null"}`;
      })
      .join("\n");
  }

  private relative(file: string): string {
    const relative = path.isAbsolute(file) ? path.relative(this.folder, file) : file;
    return relative.split(path.sep).join("/");
  }
}

class Stopped extends Error {}

const isEditTool = (tool: string) =>
  tool === "edit" || tool === "write" || tool === "patch" || tool === "multiedit";

function summarize(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "Finished.";
  const lines = trimmed.split("\n").slice(0, 3).join("\n");
  return lines.length > 300 ? `${lines.slice(0, 299)}…` : lines;
}

function describeError(error: unknown): string {
  if (!error) return "no answer";
  if (typeof error === "string") return error;
  const record = error as { data?: { message?: string }; message?: string; name?: string };
  return (
    record.data?.message ?? record.message ?? record.name ?? JSON.stringify(error).slice(0, 300)
  );
}

/** When a provider's 429 that OpenCode gave up on resets, from the answer's headers it passes on. */
function rateLimitResetOf(error: unknown): Date | null {
  const data = (error as { name?: string; data?: Record<string, unknown> } | undefined)?.data;
  if ((error as { name?: string } | undefined)?.name !== "APIError" || data?.statusCode !== 429)
    return null;
  const headers = data.responseHeaders;
  if (!headers || typeof headers !== "object") return null;
  return rateLimitResetAt(new Headers(headers as Record<string, string>));
}
