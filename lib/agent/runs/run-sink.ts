import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { updateRun } from "@/db/queries/runs";
import type { AgentRunRow } from "@/db/schema";
import type {
  ApprovalDecision,
  ApprovalRequestInput,
  EngineSink,
} from "@/lib/agent/engines/engine";
import { LoopGuard } from "@/lib/agent/engines/loop-guard";
import type { RunEventPayload } from "@/lib/agent/events/event-payloads";
import type { RunEventWriter } from "@/lib/agent/events/run-event-writer";

export interface RunSinkOptions {
  handle: DatabaseHandle;
  run: AgentRunRow;
  writer: RunEventWriter;
  /** Called on every event from the engine, so the inactivity watchdog sees it alive. */
  onActivity?: () => void;
  /** Stores an approval request and waits for its decision (see run-approvals). */
  requestApproval?: (request: ApprovalRequestInput) => Promise<ApprovalDecision>;
  /** Records the engine's process group on the run. */
  recordProcess?: (pid: number | null) => Promise<void>;
  /** Called with the run's known cost whenever an engine reports usage (the budget check). */
  onUsage?: (usage: RunEventPayload<"usage">) => void;
  /** Called when an engine repeated one call a fourth time in a row: the run is to stop. */
  onLoop?: (message: string) => void;
}

/**
 * The {@link EngineSink} of one run, over its event writer: text goes to the writer's background
 * queue (no promise per delta), structured events are awaited so they are stored in order.
 */
export function createRunSink(options: RunSinkOptions): EngineSink {
  const { writer, handle, run } = options;
  const touch = options.onActivity ?? (() => undefined);
  const loopGuard = new LoopGuard();
  return {
    noteToolCall(tool, input) {
      const verdict = loopGuard.check(tool, input);
      if (verdict === "warn") {
        writer.emitInBackground("notice", {
          kind: "loop_warning",
          message: `The engine called ${tool} with the same arguments three times in a row; one more identical call stops the run.`,
        });
      } else if (verdict === "stop") {
        options.onLoop?.(
          `The engine called ${tool} with the same arguments four times in a row, so the run was stopped; nothing was changed.`,
        );
      }
    },
    text(delta) {
      touch();
      writer.emitInBackground("assistant.delta", { text: delta });
    },
    reasoning(delta) {
      touch();
      writer.emitInBackground("reasoning.delta", { text: delta });
    },
    async emit(type, payload) {
      touch();
      await writer.emit(type, payload);
      if (type === "usage") options.onUsage?.(payload as RunEventPayload<"usage">);
    },
    flush: () => writer.flush(),
    async recordEngineRunRef(ref) {
      touch();
      await updateRun(handle.db, { id: run.id, engineRunRef: ref });
    },
    async recordProcess(pid) {
      if (!options.recordProcess) return;
      await options.recordProcess(pid);
    },
    async requestApproval(request) {
      if (!options.requestApproval) {
        // No approval store for this run: fail closed.
        return "decline";
      }
      return options.requestApproval(request);
    },
  };
}
