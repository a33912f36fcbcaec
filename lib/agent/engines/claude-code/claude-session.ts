import "server-only";
import { RateLimitReached } from "@/lib/models/rate-limit";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import {
  type PermissionResult,
  query,
  type SDKMessage,
  type SpawnedProcess,
  type SpawnOptions,
} from "@anthropic-ai/claude-agent-sdk";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { RunFailure } from "@/lib/agent/runs/run-failure";
import { redactSecrets } from "@/lib/redact-secrets";
import { promptWithConversation } from "../compacted-conversation";
import type { ApprovalRequestInput, EngineResult, EngineRunInput, EngineSink } from "../engine";
import { OrderedSink } from "../ordered-sink";

/** How long Claude Code gets to end the turn after an interrupt before its group is killed. */
export const interruptGraceMs = 5_000;
const runMarkerVariable = "PATCHWORK_ENGINE_RUN_ID";
const editTools = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

class Stopped extends Error {}
/** The stored session could not be resumed (expired, missing, from another version). */
class ResumeRefused extends Error {}
/** The CLI died before it reported a session. */
class CrashedBeforeSession extends Error {}

/**
 * One Claude Code turn through `@anthropic-ai/claude-agent-sdk`: the CLI in the run's folder with
 * a private config home, the pinned model through ANTHROPIC_BASE_URL, tool permissions asked
 * through `canUseTool` (approval cards), a turn cap and a cost cap. The session id is stored the
 * moment the CLI reports it. A rejected resume starts fresh with the conversation and a notice; a
 * crash before any session is retried once.
 */
export async function runClaudeTurn(options: {
  input: EngineRunInput;
  sink: EngineSink;
  binary: string | undefined;
  home: string;
}): Promise<EngineResult> {
  const { input, sink } = options;
  let resumeRef = input.resumeRef;
  let prompt = resumeRef ? input.input : promptWithConversation(input);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await new ClaudeTurn({ ...options, resumeRef, prompt }).run();
    } catch (error) {
      if (error instanceof ResumeRefused) {
        await sink.emit("notice", {
          kind: "engine_session_reset",
          message:
            "Claude Code could not continue its earlier session for this app, so it started a new one with a summary of it.",
          data: { engine: "claude-code", reason: error.message.slice(0, 300) },
        });
        resumeRef = null;
        prompt = promptWithConversation(input);
        continue;
      }
      if (error instanceof CrashedBeforeSession) {
        if (attempt === 1 && !input.signal.aborted) continue;
        throw new RunFailure(runErrorCodes.engineCrashed, error.message);
      }
      throw error;
    }
  }
}

class ClaudeTurn {
  private child: ChildProcess | null = null;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private stderrTail = "";
  private sessionId: string | null = null;
  private finalText = "";
  private streamedText = false;
  private readonly toolTitles = new Map<string, { tool: string; title: string; files: string[] }>();
  private readonly toolStartedAt = new Map<string, number>();
  /** Claude Code's events in the order it sent them. */
  private readonly ordered: OrderedSink;

  constructor(
    private readonly options: {
      input: EngineRunInput;
      sink: EngineSink;
      binary: string | undefined;
      home: string;
      resumeRef: string | null;
      prompt: string;
    },
  ) {
    this.ordered = new OrderedSink(options.sink);
  }

  private get input() {
    return this.options.input;
  }

  private get sink() {
    return this.options.sink;
  }

  private get folder(): string {
    const { workspace } = this.input;
    if (workspace.form !== "folder") throw new Error("Claude Code works in a folder");
    return workspace.directory;
  }

  async run(): Promise<EngineResult> {
    const { input } = this;
    const home = this.options.home;
    await mkdir(home, { recursive: true, mode: 0o700 });
    const controller = new AbortController();
    const environment: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      CLAUDE_CONFIG_DIR: path.join(home, "config"),
      LANG: "C.UTF-8",
      ANTHROPIC_BASE_URL: input.model.baseUrl,
      ANTHROPIC_API_KEY: input.model.apiKey ?? "patchwork-no-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      [runMarkerVariable]: input.run.id,
    };
    const turn = query({
      prompt: this.options.prompt,
      options: {
        cwd: this.folder,
        model: input.model.name,
        env: environment,
        ...(this.options.binary ? { pathToClaudeCodeExecutable: this.options.binary } : {}),
        ...(this.options.resumeRef ? { resume: this.options.resumeRef } : {}),
        permissionMode: input.approvalPolicy === "auto" ? "acceptEdits" : "default",
        canUseTool: (toolName, toolInput, { signal }) =>
          this.canUseTool(toolName, toolInput, signal),
        maxTurns: input.limits.maxIterations,
        ...(Number.isFinite(input.limits.maxCostUsd)
          ? { maxBudgetUsd: input.limits.maxCostUsd }
          : {}),
        includePartialMessages: true,
        // Only what Patchwork passes: no user or project settings files from the server.
        settingSources: [],
        abortController: controller,
        stderr: (data) => {
          this.stderrTail =
            `${this.stderrTail}${redactSecrets(redactSecrets(data), environment)}`.slice(-4000);
        },
        spawnClaudeCodeProcess: (spawnOptions) => this.spawn(spawnOptions),
      },
    });
    const stopped = new Promise<never>((_, reject) => {
      const stop = () => reject(new Stopped());
      if (input.signal.aborted) stop();
      else input.signal.addEventListener("abort", stop, { once: true });
    });
    stopped.catch(() => {});
    const iterator = turn[Symbol.asyncIterator]();
    let result: EngineResult | null = null;
    try {
      for (;;) {
        const next = await Promise.race([iterator.next(), stopped]);
        if (next.done) break;
        const outcome = await this.onMessage(next.value);
        if (outcome) result = outcome;
      }
      await this.ordered.settled();
      if (result) return result;
      throw this.endedWithoutResult();
    } catch (error) {
      if (error instanceof Stopped || input.signal.aborted) {
        await this.interrupt(turn, iterator);
        throw input.signal.reason;
      }
      if (error instanceof RunFailure || error instanceof ResumeRefused) throw error;
      // A resume that dies before any output is the stored session being refused.
      if (this.options.resumeRef && !this.finalText && this.toolTitles.size === 0)
        throw new ResumeRefused(this.describeCrash(error));
      throw this.sessionId
        ? this.crashed(error)
        : new CrashedBeforeSession(this.describeCrash(error));
    } finally {
      controller.abort();
      this.killGroup();
      await this.sink.recordProcess(null);
    }
  }

  private spawn(options: SpawnOptions): SpawnedProcess {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      // The SDK adds its own variables to what we passed; still nothing of the server's.
      env: options.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    // With our own spawn the SDK does not read stderr: keep its tail (redacted) for crash reports.
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (data: string) => {
      this.stderrTail =
        `${this.stderrTail}${redactSecrets(redactSecrets(data), options.env as Record<string, string>)}`.slice(
          -4000,
        );
    });
    child.once("exit", (code, signal) => {
      this.exit = { code, signal };
    });
    if (child.pid) void this.sink.recordProcess(child.pid).catch(() => undefined);
    options.signal?.addEventListener("abort", () => this.killGroup(), { once: true });
    // Spawned with pipes, so its streams exist.
    return child as ChildProcess & SpawnedProcess;
  }

  private killGroup(): void {
    const pid = this.child?.pid;
    if (!pid || this.exit) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  private async interrupt(
    turn: ReturnType<typeof query>,
    iterator: AsyncIterator<SDKMessage>,
  ): Promise<void> {
    const drained = (async () => {
      try {
        await turn.interrupt();
        for (;;) {
          const next = await iterator.next();
          if (next.done) return true;
        }
      } catch {
        return true;
      }
    })();
    const confirmed = await Promise.race([
      drained,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), interruptGraceMs)),
    ]);
    if (!confirmed) {
      console.warn(
        `[patchwork] claude-code: run ${this.input.run.id} did not stop within ${interruptGraceMs / 1000} s; killing its process group`,
      );
    }
    this.killGroup();
  }

  private describeCrash(error: unknown): string {
    const how = this.exit?.signal
      ? `was killed by ${this.exit.signal}`
      : this.exit
        ? `exited with code ${this.exit.code}`
        : `failed (${error instanceof Error ? error.message.slice(0, 200) : String(error)})`;
    const tail = this.stderrTail.trim().split("\n").slice(-3).join(" | ");
    return `Claude Code ${how} before it finished${tail ? ` (${tail.slice(0, 500)})` : ""}; nothing was changed.`;
  }

  private crashed(error: unknown): RunFailure {
    return new RunFailure(runErrorCodes.engineCrashed, this.describeCrash(error));
  }

  private endedWithoutResult(): Error {
    if (this.options.resumeRef && !this.sessionId)
      return new ResumeRefused(this.stderrTail.trim().slice(-300) || "no session");
    return this.sessionId
      ? this.crashed(new Error("no result"))
      : new CrashedBeforeSession(this.describeCrash(new Error("no session")));
  }

  private emit(...args: Parameters<EngineSink["emit"]>): Promise<void> {
    return this.ordered.emit(...args);
  }

  private text(kind: "text" | "reasoning", delta: string): void {
    if (kind === "text") this.finalText += delta;
    this.ordered.text(kind, delta);
  }

  private async onMessage(message: SDKMessage): Promise<EngineResult | null> {
    switch (message.type) {
      case "system":
        if (message.subtype === "init") {
          this.sessionId = message.session_id;
          // Stored at once: a watchdog kill later still leaves a resumable session.
          await this.sink.recordEngineRunRef(message.session_id);
        }
        return null;
      case "stream_event": {
        const event = message.event as {
          type: string;
          delta?: { type: string; text?: string; thinking?: string };
        };
        if (event.type === "message_start" && this.finalText && !this.finalText.endsWith("\n\n"))
          this.text("text", "\n\n");
        if (event.type === "content_block_delta" && event.delta?.type === "text_delta") {
          this.streamedText = true;
          this.text("text", event.delta.text ?? "");
        } else if (event.type === "content_block_delta" && event.delta?.type === "thinking_delta") {
          this.text("reasoning", event.delta.thinking ?? "");
        }
        return null;
      }
      case "assistant": {
        for (const block of message.message.content) {
          if (block.type === "text" && !this.streamedText) this.text("text", block.text);
          if (block.type !== "tool_use") continue;
          const toolInput = (block.input ?? {}) as Record<string, unknown>;
          const files = this.filesOf(toolInput);
          const title = this.toolTitle(block.name, toolInput);
          this.toolTitles.set(block.id, { tool: block.name, title, files });
          this.sink.noteToolCall(block.name, toolInput);
          this.toolStartedAt.set(block.id, Date.now());
          void this.emit("tool.started", { call_id: block.id, tool: block.name, title });
        }
        return null;
      }
      case "user": {
        const content = message.message.content;
        if (typeof content === "string") return null;
        for (const block of content) {
          if (block.type !== "tool_result") continue;
          const known = this.toolTitles.get(block.tool_use_id);
          if (!known) continue;
          const output = textOf(block.content);
          const duration_ms =
            Date.now() - (this.toolStartedAt.get(block.tool_use_id) ?? Date.now());
          if (block.is_error) {
            const declined = /denied|declined|rejected|permission/i.test(output);
            void this.emit("tool.failed", {
              call_id: block.tool_use_id,
              tool: known.tool,
              title: known.title,
              code: declined ? runErrorCodes.toolDeclined : runErrorCodes.toolExecutionFailed,
              message: declined ? "The change was declined." : summarize(output),
              diagnostics: [],
              duration_ms,
            });
          } else {
            void this.emit("tool.completed", {
              call_id: block.tool_use_id,
              tool: known.tool,
              title: known.title,
              summary: summarize(output),
              duration_ms,
              ...(editTools.has(known.tool) && known.files.length > 0
                ? { files: known.files }
                : {}),
            });
          }
        }
        return null;
      }
      case "rate_limit_event": {
        const info = message.rate_limit_info;
        if (info.status !== "rejected") return null;
        const resetAt = info.resetsAt ? new Date(info.resetsAt * 1000).toISOString() : null;
        await this.emit("notice", {
          kind: "rate_limit",
          message: `The model provider's rate limit was reached${resetAt ? `; it resets at ${resetAt}` : ""}.`,
          data: { reset_at: resetAt },
        });
        throw new RunFailure(
          runErrorCodes.rateLimited,
          `Claude Code hit its provider's rate limit${resetAt ? `; it resets at ${resetAt}` : ""}. Nothing was changed.`,
          // A known reset pauses the run until then (the executor finds this cause).
          { cause: resetAt ? new RateLimitReached(new Date(resetAt)) : { reset_at: resetAt } },
        );
      }
      case "result": {
        const usage = {
          input_tokens:
            (message.usage.input_tokens ?? 0) +
            (message.usage.cache_read_input_tokens ?? 0) +
            (message.usage.cache_creation_input_tokens ?? 0),
          output_tokens: message.usage.output_tokens ?? 0,
          cache_read_input_tokens: message.usage.cache_read_input_tokens ?? 0,
          cache_creation_input_tokens: message.usage.cache_creation_input_tokens ?? 0,
          // Claude Code prices its own models (caching included); the executor prices the rest.
          total_cost_usd: message.total_cost_usd ?? null,
        };
        const errors =
          "errors" in message && Array.isArray(message.errors) ? message.errors.join("; ") : "";
        // A resumed session that fails before doing anything was refused (expired, missing, or
        // from another version): the caller starts fresh, so nothing of this attempt is reported.
        if (
          message.subtype !== "success" &&
          this.options.resumeRef &&
          !this.finalText &&
          this.toolTitles.size === 0
        )
          throw new ResumeRefused(errors || message.subtype);
        await this.emit("usage", usage);
        if (message.subtype === "success") {
          return { text: this.finalText, usage, hitIterationLimit: false };
        }
        if (message.subtype === "error_max_turns") {
          return { text: this.finalText, usage, hitIterationLimit: true };
        }
        if (message.subtype === "error_max_budget_usd") {
          throw new RunFailure(
            runErrorCodes.budgetExceeded,
            `Claude Code stopped at the run's cost cap of $${this.input.limits.maxCostUsd.toFixed(2)}; nothing was changed.`,
          );
        }
        if (this.input.signal.aborted) throw new Stopped();
        throw new RunFailure(
          runErrorCodes.modelError,
          `Claude Code could not finish: ${(errors || message.subtype).slice(0, 500)}`,
        );
      }
      default:
        return null;
    }
  }

  private async canUseTool(
    toolName: string,
    toolInput: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<PermissionResult> {
    await this.ordered.settled();
    const files = this.filesOf(toolInput);
    const request: ApprovalRequestInput = editTools.has(toolName)
      ? {
          kind: "file_change",
          description: this.toolTitle(toolName, toolInput),
          context: { paths: files, ...(this.editDiff(toolName, toolInput, files[0]) ?? {}) },
        }
      : toolName === "Bash"
        ? {
            kind: "command",
            description: `Run \`${String(toolInput.command ?? "").slice(0, 200)}\``,
            context: { command: String(toolInput.command ?? ""), cwd: "." },
          }
        : {
            kind: "permission",
            description: `Allow ${toolName}`,
            context: { paths: files },
          };
    if (signal.aborted) return { behavior: "deny", message: "The run was stopped." };
    const decision = await this.sink.requestApproval(request);
    if (decision === "decline") {
      return { behavior: "deny", message: "The person declined this in Patchwork." };
    }
    return { behavior: "allow", updatedInput: toolInput };
  }

  /** A small unified diff of an Edit, for the approval card (Write shows the new file). */
  private editDiff(
    toolName: string,
    toolInput: Record<string, unknown>,
    file: string | undefined,
  ): { diff: string } | null {
    if (!file) return null;
    const lines = (text: unknown, prefix: string) =>
      String(text ?? "")
        .split("\n")
        .map((line) => `${prefix}${line}`);
    if (toolName === "Edit") {
      const removed = lines(toolInput.old_string, "-");
      const added = lines(toolInput.new_string, "+");
      return {
        diff: [
          `--- a/${file}`,
          `+++ b/${file}`,
          `@@ -1,${removed.length} +1,${added.length} @@`,
          ...removed,
          ...added,
          "",
        ].join("\n"),
      };
    }
    if (toolName === "Write") {
      const added = lines(toolInput.content, "+");
      return {
        diff: [
          `--- a/${file}`,
          `+++ b/${file}`,
          `@@ -0,0 +1,${added.length} @@`,
          ...added,
          "",
        ].join("\n"),
      };
    }
    return null;
  }

  private filesOf(toolInput: Record<string, unknown>): string[] {
    const file = toolInput.file_path ?? toolInput.notebook_path ?? toolInput.path;
    return typeof file === "string" ? [this.relative(file)] : [];
  }

  private toolTitle(tool: string, toolInput: Record<string, unknown>): string {
    const [file] = this.filesOf(toolInput);
    if (tool === "Bash" && typeof toolInput.command === "string")
      return `Run \`${toolInput.command.slice(0, 120)}\``;
    if (file && editTools.has(tool)) return `${tool === "Write" ? "Write" : "Edit"} ${file}`;
    if (file && tool === "Read") return `Read ${file}`;
    return file ? `${tool} ${file}` : tool;
  }

  private relative(file: string): string {
    const relative = path.isAbsolute(file) ? path.relative(this.folder, file) : file;
    return relative.split(path.sep).join("/");
  }
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) =>
      block && typeof block === "object" && typeof block.text === "string" ? block.text : "",
    )
    .join("");
}

function summarize(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "Finished.";
  const lines = trimmed.split("\n").slice(0, 3).join("\n");
  return lines.length > 300 ? `${lines.slice(0, 299)}…` : lines;
}
