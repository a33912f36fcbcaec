import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { getRunById } from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import type {
  CodingEngine,
  EngineResult,
  EngineRunInput,
  EngineSink,
} from "@/lib/agent/engines/engine";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import type { RunEventWriter } from "@/lib/agent/events/run-event-writer";
import type { WorkspaceSession } from "@/lib/agent/workspace/workspace-session";
import { type FileChange, readAllFiles } from "@/lib/workspace";
import { type AppCheck, checkApp, checkFailureMessage } from "./app-check";

/** The tool name of the end-of-run check's row in the panel. */
export const appCheckToolName = "check_app";

/**
 * Ends a run that changed files with a check of the app (bundle, types, Chromium), shown as its
 * own row. When it fails, the engine gets the problems as a new turn, on the same workspace and
 * (where it can resume) the same session, up to `attempts` times; then the run ends saying
 * plainly whether the app works. Returns the engine's combined result.
 */
export async function checkAndFix(input: {
  handle: DatabaseHandle;
  run: AgentRunRow;
  engine: CodingEngine;
  engineInput: EngineRunInput;
  sink: EngineSink;
  writer: RunEventWriter;
  session: WorkspaceSession;
  attempts: number;
  result: EngineResult;
  /** The check is not the engine's silence: the inactivity watchdog sleeps while it runs. */
  whileChecking?: { start(): void; end(): void };
}): Promise<EngineResult> {
  const { handle, run, engine, sink, session, writer } = input;
  let result = input.result;
  let engineInput = input.engineInput;
  for (let round = 1; ; round += 1) {
    const { changes } = await session.changes();
    if (changes.length === 0) return result;
    const files = await filesAfterChanges(handle, run, changes);
    const callId = `check-${round}`;
    const title = "Check the app";
    await sink.emit("tool.started", { call_id: callId, tool: appCheckToolName, title });
    input.whileChecking?.start();
    const check = await checkApp({
      key: `run:${run.id}:check:${round}`,
      appId: run.appId,
      files,
    }).finally(() => input.whileChecking?.end());
    if (engineInput.signal.aborted) throw engineInput.signal.reason;
    await emitCheckRow(sink, callId, title, check);
    if (check.verdict !== "broken") return result;

    const attemptsLeft = input.attempts - (round - 1);
    if (attemptsLeft <= 0) {
      await writer.emit("notice", {
        kind: "check_failed",
        message: `The app does not work yet${input.attempts > 0 ? ` after ${input.attempts} ${input.attempts === 1 ? "attempt" : "attempts"} to fix it` : ""}: ${check.problems
          .slice(0, 3)
          .join(
            "; ",
          )}${check.problems.length > 3 ? "; …" : ""}. The changes are saved; ask the agent to continue, or fix them yourself.`,
        data: { problems: check.problems.slice(0, 20) },
      });
      return result;
    }

    const followUp = checkFailureMessage(check, attemptsLeft);
    const latest = await getRunById(handle.db, { id: run.id });
    engineInput = {
      ...engineInput,
      input: followUp,
      conversation: {
        appName: engineInput.conversation.appName,
        messages: [
          ...engineInput.conversation.messages,
          { role: "assistant", content: result.text.trim() || "I changed the files above." },
          { role: "user", content: followUp },
        ],
      },
      // Continue the engine's own session where it has one (Codex thread, OpenCode, Claude).
      resumeRef: latest?.engineRunRef ?? engineInput.resumeRef,
    };
    const next = await engine.run(engineInput, sink);
    if (engineInput.signal.aborted) throw engineInput.signal.reason;
    await sink.flush();
    result = {
      text: [result.text.trim(), next.text.trim()].filter(Boolean).join("\n\n"),
      usage: addUsage(result.usage, next.usage),
      hitIterationLimit: next.hitIterationLimit,
    };
  }
}

async function emitCheckRow(
  sink: EngineSink,
  callId: string,
  title: string,
  check: AppCheck,
): Promise<void> {
  const shared = {
    call_id: callId,
    tool: appCheckToolName,
    title,
    duration_ms: check.durationMs,
    screenshot: check.screenshot,
    visible_text: check.visibleText,
    verdict: check.verdict,
  };
  if (check.verdict === "broken") {
    await sink.emit("tool.failed", {
      ...shared,
      code: runErrorCodes.verificationFailed,
      message: check.summary,
      diagnostics: check.diagnostics.map((diagnostic) => ({ ...diagnostic })),
    });
  } else {
    // The verdict is the settled row's title: "Checked: builds, types, no runtime errors".
    await sink.emit("tool.completed", { ...shared, title: check.summary, summary: check.summary });
  }
}

/** The run's files as they would land: the base revision with the run's changes applied. */
async function filesAfterChanges(
  handle: DatabaseHandle,
  run: AgentRunRow,
  changes: FileChange[],
): Promise<Map<string, Uint8Array | string>> {
  const { files } = await readAllFiles(handle.db, {
    appId: run.appId,
    revisionId: run.baseRevisionId,
  });
  const result = new Map<string, Uint8Array | string>(files);
  for (const change of changes) {
    if (change.type === "write") result.set(change.path, change.content);
    else if (change.type === "delete") result.delete(change.path);
    else {
      const content = result.get(change.from);
      result.delete(change.from);
      if (content !== undefined) result.set(change.to, content);
    }
  }
  return result;
}

function addUsage(
  left: EngineResult["usage"],
  right: EngineResult["usage"],
): EngineResult["usage"] {
  const cost =
    left.total_cost_usd != null && right.total_cost_usd != null
      ? left.total_cost_usd + right.total_cost_usd
      : null;
  return {
    input_tokens: left.input_tokens + right.input_tokens,
    output_tokens: left.output_tokens + right.output_tokens,
    cache_read_input_tokens: left.cache_read_input_tokens + right.cache_read_input_tokens,
    cache_creation_input_tokens:
      left.cache_creation_input_tokens + right.cache_creation_input_tokens,
    total_cost_usd: cost,
  };
}
