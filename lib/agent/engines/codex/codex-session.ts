import "server-only";
import { RateLimitReached } from "@/lib/models/rate-limit";
import path from "node:path";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { logServerError } from "@/lib/log";
import { estimateCostUsd } from "@/lib/models/estimate-cost";
import { redactSecrets } from "@/lib/redact-secrets";
import { promptWithConversation } from "../compacted-conversation";
import type { ApprovalDecision, EngineResult, EngineRunInput, EngineSink } from "../engine";
import type { EngineProcess } from "../engine-process";
import { OrderedSink } from "../ordered-sink";
import type { CommandExecutionApprovalDecision } from "./generated/v2/CommandExecutionApprovalDecision";
import type { CommandExecutionRequestApprovalParams } from "./generated/v2/CommandExecutionRequestApprovalParams";
import type { FileChangeRequestApprovalParams } from "./generated/v2/FileChangeRequestApprovalParams";
import type { FileUpdateChange } from "./generated/v2/FileUpdateChange";
import type { ThreadItem } from "./generated/v2/ThreadItem";
import type { ThreadStartParams } from "./generated/v2/ThreadStartParams";
import type { ThreadStartResponse } from "./generated/v2/ThreadStartResponse";
import type { TokenUsageBreakdown } from "./generated/v2/TokenUsageBreakdown";
import type { Turn } from "./generated/v2/Turn";
import type { TurnStartParams } from "./generated/v2/TurnStartParams";
import type { TurnStartResponse } from "./generated/v2/TurnStartResponse";
import {
  JsonRpcConnection,
  JsonRpcConnectionClosed,
  JsonRpcError,
  methodNotFound,
} from "./json-rpc-connection";

/** How long Codex gets to confirm an interrupt before its process group is killed. */
export const interruptGraceMs = 5_000;

const developerInstructions = [
  "You are editing a web app in the current folder for a person using Patchwork, a browser-based",
  "app builder. Patchwork bundles and previews the app itself after your turn: do not install",
  "packages, start servers or run builds. Change files with apply_patch. Keep your replies short.",
].join(" ");

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void };
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Why waiting stopped early: the run was stopped, or Codex exited. */
class Interrupted extends Error {}
class Exited extends Error {
  constructor(readonly exit: { code: number | null; signal: NodeJS.Signals | null }) {
    super("exited");
  }
}

/**
 * One Codex turn over `codex app-server`: the handshake, a thread (resumed when the app has one),
 * the turn, and everything Codex says mapped onto the run's sink — text, reasoning, one tool row
 * per command or file change, approvals as cards, usage. Stop interrupts the turn and, without a
 * confirmation within {@link interruptGraceMs}, kills the process group; either way the run ends
 * with nothing committed because the executor sees the signal.
 */
export class CodexSession {
  private readonly connection: JsonRpcConnection;
  private threadId: string | null = null;
  private turnId: string | null = null;
  private readonly turnCompleted = deferred<Turn>();
  private readonly fileChanges = new Map<string, FileUpdateChange[]>();
  private readonly startedAt = new Map<string, number>();
  private finalText = "";
  private messageItemId: string | null = null;
  private usage: TokenUsageBreakdown | null = null;
  private lastError: string | null = null;
  private rateLimitNoticeSent = false;
  /** The last rate-limit windows Codex reported: when a limit it hit resets. */
  private rateLimits: RateLimitSnapshotLike = null;
  /** Codex's events in the order it sent them. */
  private readonly ordered: OrderedSink;

  constructor(
    private readonly engineProcess: EngineProcess,
    private readonly input: EngineRunInput,
    private readonly sink: EngineSink,
    private readonly folder: string,
  ) {
    this.ordered = new OrderedSink(sink, (error) =>
      logServerError("codex: an event could not be stored", error),
    );
    const { child } = engineProcess;
    if (!child.stdout || !child.stdin) throw new Error("codex app-server has no stdio");
    this.connection = new JsonRpcConnection(child.stdout, child.stdin, {
      onNotification: (method, params) => this.onNotification(method, params),
      onRequest: (method, params) => this.onRequest(method, params),
      onUnparsableLine: (line) => warn(`an unparsable line from app-server: ${line.slice(0, 200)}`),
    });
  }

  async run(): Promise<EngineResult> {
    const { input } = this;
    const exited = this.engineProcess.exited.then((exit) => {
      this.connection.close();
      throw new Exited(exit);
    });
    // The race below rethrows it; until then, an early exit must not be unhandled.
    exited.catch(() => {});
    const stopped = new Promise<never>((_, reject) => {
      const stop = () => reject(new Interrupted());
      if (input.signal.aborted) stop();
      else input.signal.addEventListener("abort", stop, { once: true });
    });
    stopped.catch(() => {});
    const until = <T>(work: Promise<T>) => Promise.race([work, exited, stopped]);

    try {
      await until(
        this.connection.request("initialize", {
          clientInfo: { name: "patchwork", title: "Patchwork", version: "0.1.0" },
          capabilities: { experimentalApi: false, requestAttestation: false },
        }),
      );
      this.connection.notify("initialized");
      const { threadId, prompt } = await until(this.openThread());
      this.threadId = threadId;
      await this.sink.recordEngineRunRef(threadId);
      const turnParams: TurnStartParams = {
        threadId,
        input: [{ type: "text", text: prompt, text_elements: [] }],
      };
      const started = await until(
        this.connection.request<TurnStartResponse>("turn/start", turnParams),
      );
      this.turnId = started.turn.id;
      const turn = await until(this.turnCompleted.promise);
      await this.ordered.settled();
      return this.finish(turn);
    } catch (error) {
      if (error instanceof Interrupted) return this.interrupt();
      if (error instanceof Exited) throw this.crashed(error.exit);
      if (error instanceof JsonRpcConnectionClosed) {
        // Its stdout closed first; the exit status follows within moments.
        const exit = await Promise.race([
          this.engineProcess.exited,
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000)),
        ]);
        throw this.crashed(exit ?? { code: null, signal: null });
      }
      if (input.signal.aborted) return this.interrupt();
      throw error;
    }
  }

  /** Resumes the app's thread when there is one; a refusal starts fresh with the conversation. */
  private async openThread(): Promise<{ threadId: string; prompt: string }> {
    const { input } = this;
    const settings = {
      cwd: this.folder,
      model: input.model.name,
      modelProvider: "patchwork",
      // "untrusted" is the policy under which Codex asks before a file change; the run's own
      // policy (ask / auto) is applied when the sink answers.
      approvalPolicy: "untrusted" as const,
      sandbox: "workspace-write" as const,
      developerInstructions,
    };
    if (input.resumeRef) {
      try {
        const resumed = await this.connection.request<ThreadStartResponse>("thread/resume", {
          threadId: input.resumeRef,
          ...settings,
          excludeTurns: true,
        });
        return { threadId: resumed.thread.id, prompt: input.input };
      } catch (error) {
        if (!(error instanceof JsonRpcError)) throw error;
        await this.emit("notice", {
          kind: "engine_session_reset",
          message:
            "Codex could not continue its earlier conversation for this app, so it started a new one with a summary of it.",
          data: { engine: "codex", reason: error.message.slice(0, 300) },
        });
      }
    }
    const params: ThreadStartParams = { ...settings, ephemeral: false };
    const started = await this.connection.request<ThreadStartResponse>("thread/start", params);
    return { threadId: started.thread.id, prompt: promptWithConversation(input) };
  }

  private async finish(turn: Turn): Promise<EngineResult> {
    if (turn.status === "failed") {
      const message = turn.error?.message ?? this.lastError ?? "Codex reported a failed turn.";
      const info = turn.error?.codexErrorInfo;
      if (info === "usageLimitExceeded" || info === "rateLimitExceeded") {
        // The exhausted window's reset, when Codex said it: the run pauses until then.
        const resetsAt = [this.rateLimits?.primary, this.rateLimits?.secondary]
          .filter((window) => window && window.usedPercent >= 100 && window.resetsAt)
          .map((window) => (window?.resetsAt ?? 0) * 1000)
          .sort((first, second) => second - first)[0];
        throw new RunFailure(
          runErrorCodes.rateLimited,
          `Codex hit its provider's rate limit${resetsAt ? `; it resets at ${new Date(resetsAt).toISOString()}` : ""}. Nothing was changed.`,
          resetsAt ? { cause: new RateLimitReached(new Date(resetsAt)) } : {},
        );
      }
      throw new RunFailure(runErrorCodes.modelError, `Codex could not finish: ${message}`);
    }
    if (turn.status === "interrupted") {
      throw new RunFailure(
        runErrorCodes.interrupted,
        "Codex stopped the turn before it finished; nothing was changed.",
      );
    }
    return {
      text: this.finalText,
      usage: this.runUsage(),
      hitIterationLimit: false,
    };
  }

  /** Asks Codex to stop; kills the group when it does not confirm in time. Always throws. */
  private async interrupt(): Promise<never> {
    const reason = this.input.signal.reason;
    if (this.threadId && this.turnId) {
      const confirmed = await Promise.race([
        this.connection
          .request("turn/interrupt", { threadId: this.threadId, turnId: this.turnId })
          .then(() => this.turnCompleted.promise)
          .then(
            () => true,
            () => false,
          ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), interruptGraceMs)),
      ]);
      if (!confirmed) {
        warn(
          `run ${this.input.run.id}: the interrupt was not confirmed; killing its process group`,
        );
      }
    }
    this.engineProcess.killGroup();
    throw reason;
  }

  private crashed(exit: { code: number | null; signal: NodeJS.Signals | null }): RunFailure {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const tail = this.engineProcess.stderrTail().trim().split("\n").slice(-3).join(" | ");
    return new RunFailure(
      runErrorCodes.engineCrashed,
      `Codex ${how} before it finished${tail ? ` (${tail.slice(0, 500)})` : ""}; nothing was changed.`,
    );
  }

  private runUsage(): EngineResult["usage"] {
    const usage = this.usage;
    return {
      input_tokens: usage?.inputTokens ?? 0,
      output_tokens: usage?.outputTokens ?? 0,
      cache_read_input_tokens: usage?.cachedInputTokens ?? 0,
      cache_creation_input_tokens: usage?.cacheWriteInputTokens ?? 0,
      total_cost_usd: null,
    };
  }

  private emit(...args: Parameters<EngineSink["emit"]>): Promise<void> {
    return this.ordered.emit(...args);
  }

  private text(kind: "text" | "reasoning", delta: string): void {
    this.ordered.text(kind, delta);
  }

  private onNotification(method: string, params: unknown): void {
    const body = (params ?? {}) as Record<string, unknown>;
    if (typeof body.threadId === "string" && this.threadId && body.threadId !== this.threadId)
      return;
    switch (method) {
      case "item/agentMessage/delta": {
        // Separate messages of one turn (before and after a tool call) stay separate paragraphs.
        const separator = this.finalText && body.itemId !== this.messageItemId ? "\n\n" : "";
        this.messageItemId = typeof body.itemId === "string" ? body.itemId : null;
        const delta = separator + String(body.delta ?? "");
        this.finalText += delta;
        this.text("text", delta);
        return;
      }
      case "item/reasoning/summaryTextDelta":
      case "item/reasoning/textDelta":
        this.text("reasoning", String(body.delta ?? ""));
        return;
      case "item/started":
        this.onItemStarted(body.item as ThreadItem);
        return;
      case "item/completed":
        this.onItemCompleted(body.item as ThreadItem);
        return;
      case "thread/tokenUsage/updated":
        this.onUsage((body.tokenUsage as { total: TokenUsageBreakdown }).total);
        return;
      case "turn/completed": {
        const turn = body.turn as Turn;
        if (!this.turnId || turn.id === this.turnId) this.turnCompleted.resolve(turn);
        return;
      }
      case "error": {
        const error = body.error as { message?: string } | undefined;
        this.lastError = error?.message ?? null;
        if (body.willRetry === true) {
          void this.emit("notice", {
            kind: "engine_retrying",
            message: `Codex is retrying after an error: ${(error?.message ?? "unknown").slice(0, 300)}`,
          });
        }
        return;
      }
      case "account/rateLimits/updated":
        this.onRateLimits(body.rateLimits as RateLimitSnapshotLike);
        return;
      default:
        return;
    }
  }

  private onItemStarted(item: ThreadItem): void {
    if (item.type === "commandExecution") {
      this.sink.noteToolCall("command", { command: item.command, cwd: item.cwd });
      this.startedAt.set(item.id, Date.now());
      void this.emit("tool.started", {
        call_id: item.id,
        tool: "command",
        title: `Run \`${shorten(item.command, 120)}\``,
        command: item.command,
      });
    } else if (item.type === "fileChange") {
      this.sink.noteToolCall("file_change", item.changes);
      this.startedAt.set(item.id, Date.now());
      this.fileChanges.set(item.id, item.changes);
      void this.emit("tool.started", {
        call_id: item.id,
        tool: "file_change",
        title: this.fileChangeTitle(item.changes),
        files: item.changes.map((change) => this.relative(change.path)),
      });
    } else if (item.type === "mcpToolCall") {
      this.sink.noteToolCall(`${item.server}.${item.tool}`, item.arguments);
      this.startedAt.set(item.id, Date.now());
      void this.emit("tool.started", {
        call_id: item.id,
        tool: `${item.server}.${item.tool}`,
        title: `${item.server}: ${item.tool}`,
      });
    }
  }

  private onItemCompleted(item: ThreadItem): void {
    if (item.type === "agentMessage") {
      // Some turns deliver a message whole, without deltas.
      if (item.id !== this.messageItemId && item.text) {
        const delta = `${this.finalText ? "\n\n" : ""}${item.text}`;
        this.messageItemId = item.id;
        this.finalText += delta;
        this.text("text", delta);
      }
      return;
    }
    const started = this.startedAt.get(item.id);
    if (started === undefined) return;
    const duration_ms = Date.now() - started;
    if (item.type === "commandExecution") {
      const title = `Run \`${shorten(item.command, 120)}\``;
      const output = (item.aggregatedOutput ?? "").trim();
      if (item.status === "completed" && (item.exitCode ?? 0) === 0) {
        void this.emit("tool.completed", {
          call_id: item.id,
          tool: "command",
          title,
          summary: output ? shorten(lastLines(output, 3), 300) : "Finished.",
          exit_code: item.exitCode ?? 0,
          duration_ms,
        });
      } else {
        const declined = item.status === "declined";
        void this.emit("tool.failed", {
          call_id: item.id,
          tool: "command",
          title,
          code: declined ? runErrorCodes.toolDeclined : runErrorCodes.engineCrashed,
          message: declined
            ? "The command was declined."
            : `The command failed${item.exitCode === null ? "" : ` with exit code ${item.exitCode}`}${output ? `: ${shorten(lastLines(output, 3), 300)}` : "."}`,
          diagnostics: [],
          duration_ms,
        });
      }
    } else if (item.type === "fileChange") {
      const title = this.fileChangeTitle(item.changes);
      const files = item.changes.map((change) => this.relative(change.path));
      if (item.status === "completed") {
        void this.emit("tool.completed", {
          call_id: item.id,
          tool: "file_change",
          title,
          summary: `Changed ${files.join(", ")}.`,
          files,
          changes: item.changes.map((change) => ({
            path: this.relative(change.path),
            ...countDiffLines(change.diff),
          })),
          duration_ms,
        });
      } else {
        const declined = item.status === "declined";
        void this.emit("tool.failed", {
          call_id: item.id,
          tool: "file_change",
          title,
          code: declined ? runErrorCodes.toolDeclined : "PATCH_CONTEXT_NOT_FOUND",
          message: declined
            ? "The change was declined."
            : "Codex could not apply this change to the files.",
          diagnostics: [],
          files,
          duration_ms,
        });
      }
    } else if (item.type === "mcpToolCall") {
      const tool = `${item.server}.${item.tool}`;
      if (item.status === "completed") {
        void this.emit("tool.completed", {
          call_id: item.id,
          tool,
          title: `${item.server}: ${item.tool}`,
          summary: "Finished.",
          duration_ms,
        });
      } else {
        void this.emit("tool.failed", {
          call_id: item.id,
          tool,
          title: `${item.server}: ${item.tool}`,
          code: runErrorCodes.engineCrashed,
          message: item.error?.message ?? "The tool call failed.",
          diagnostics: [],
          duration_ms,
        });
      }
    }
  }

  private onUsage(total: TokenUsageBreakdown): void {
    this.usage = total;
    const usage = this.runUsage();
    void this.emit("usage", {
      ...usage,
      total_cost_usd: estimateCostUsd(this.input.model.id, {
        inputTokens: total.inputTokens,
        outputTokens: total.outputTokens,
        inputTokenDetails: {
          cacheReadTokens: total.cachedInputTokens,
          cacheWriteTokens: total.cacheWriteInputTokens,
        },
      }),
    });
  }

  private onRateLimits(snapshot: RateLimitSnapshotLike): void {
    this.rateLimits = snapshot;
    const windows = [snapshot?.primary, snapshot?.secondary].filter(
      (window): window is NonNullable<typeof window> => Boolean(window),
    );
    const nearest = windows.find((window) => window.usedPercent >= 90);
    if (!nearest || this.rateLimitNoticeSent) return;
    this.rateLimitNoticeSent = true;
    const resetAt = nearest.resetsAt ? new Date(nearest.resetsAt * 1000).toISOString() : null;
    void this.emit("notice", {
      kind: "rate_limit",
      message: `The model provider's rate limit is ${Math.round(nearest.usedPercent)} % used${resetAt ? `; it resets at ${resetAt}` : ""}.`,
      data: { used_percent: nearest.usedPercent, reset_at: resetAt },
    });
  }

  private async onRequest(method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case "item/fileChange/requestApproval": {
        const request = params as FileChangeRequestApprovalParams;
        const changes = this.fileChanges.get(request.itemId) ?? [];
        const paths = changes.map((change) => this.relative(change.path));
        await this.ordered.settled();
        const decision = await this.sink.requestApproval({
          kind: "file_change",
          description: changes.length > 0 ? this.fileChangeTitle(changes) : "Change files",
          context: {
            diff: changes
              .map((change) => withFileHeader(this.relative(change.path), change))
              .join("\n"),
            paths,
            ...(request.reason ? { reason: request.reason } : {}),
          },
        });
        return { decision: codexDecision(decision) };
      }
      case "item/commandExecution/requestApproval": {
        const request = params as CommandExecutionRequestApprovalParams;
        const command = request.command ?? "(a command)";
        await this.ordered.settled();
        const decision = await this.sink.requestApproval({
          kind: "command",
          description: `Run \`${shorten(command, 200)}\``,
          context: {
            command,
            cwd: request.cwd ? this.relative(request.cwd) || "." : ".",
            ...(request.reason ? { reason: request.reason } : {}),
          },
        });
        const answer: CommandExecutionApprovalDecision = codexDecision(decision);
        return { decision: answer };
      }
      case "item/permissions/requestApproval":
        await this.declined("more permissions (network or files outside the app)");
        return { permissions: {}, scope: "turn" };
      case "item/tool/requestUserInput":
        await this.declined("an answer to a question in the middle of its turn");
        return { answers: {} };
      case "mcpServer/elicitation/request":
        await this.declined("input for one of its tools");
        return { action: "decline", content: null, _meta: null };
      case "applyPatchApproval":
      case "execCommandApproval":
        return {
          decision: {
            denied: { rejection: "Patchwork answers approvals through v2 requests only." },
          },
        };
      default:
        throw new JsonRpcError(methodNotFound, `Patchwork does not handle ${method}.`);
    }
  }

  private async declined(what: string): Promise<void> {
    await this.emit("notice", {
      kind: "engine_request_declined",
      message: `Codex asked for ${what}; Patchwork does not offer that, so it was declined.`,
    });
  }

  private relative(file: string): string {
    const relative = path.isAbsolute(file) ? path.relative(this.folder, file) : file;
    return relative.split(path.sep).join("/");
  }

  private fileChangeTitle(changes: readonly FileUpdateChange[]): string {
    const paths = changes.map((change) => this.relative(change.path));
    if (paths.length === 0) return "Change files";
    const verb =
      changes.length === 1 && changes[0].kind.type === "add"
        ? "Create"
        : changes.length === 1 && changes[0].kind.type === "delete"
          ? "Delete"
          : "Edit";
    return `${verb} ${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ` and ${paths.length - 3} more` : ""}`;
  }
}

function warn(message: string): void {
  console.warn(`[patchwork] codex: ${redactSecrets(message)}`);
}

type RateLimitSnapshotLike = {
  primary?: { usedPercent: number; resetsAt: number | null } | null;
  secondary?: { usedPercent: number; resetsAt: number | null } | null;
} | null;

function codexDecision(decision: ApprovalDecision): "accept" | "acceptForSession" | "decline" {
  if (decision === "accept") return "accept";
  if (decision === "accept_for_session") return "acceptForSession";
  return "decline";
}

function shorten(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

function lastLines(text: string, count: number): string {
  return text.split("\n").slice(-count).join("\n");
}

/** Codex's per-file diff is hunks only; the card's diff view wants file headers. */
function withFileHeader(file: string, change: FileUpdateChange): string {
  if (/^(---|diff --git)/m.test(change.diff)) return change.diff;
  const from = change.kind.type === "add" ? "/dev/null" : `a/${file}`;
  const to = change.kind.type === "delete" ? "/dev/null" : `b/${file}`;
  return `--- ${from}\n+++ ${to}\n${change.diff}${change.diff.endsWith("\n") ? "" : "\n"}`;
}

function countDiffLines(diff: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+") && !line.startsWith("+++")) additions += 1;
    else if (line.startsWith("-") && !line.startsWith("---")) deletions += 1;
  }
  return { additions, deletions };
}
