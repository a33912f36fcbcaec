import type { ApprovalDecision, ApprovalRequestInput, EngineSink } from "../engine";

export interface RecordedSinkEvent {
  type: string;
  payload: Record<string, unknown>;
}

/**
 * For engine tests: an {@link EngineSink} that keeps what an engine sends, in order, and answers
 * approvals with `decide`. Text deltas are joined into one entry per run of deltas.
 */
export function recordingSink(
  decide: (request: ApprovalRequestInput) => Promise<ApprovalDecision> | ApprovalDecision = () =>
    "accept",
) {
  const events: RecordedSinkEvent[] = [];
  const approvals: ApprovalRequestInput[] = [];
  const engineRunRefs: string[] = [];
  const pids: (number | null)[] = [];
  const toolCalls: { tool: string; input: unknown }[] = [];
  const append = (type: "assistant.delta" | "reasoning.delta", delta: string) => {
    const last = events.at(-1);
    if (last?.type === type) last.payload.text = `${last.payload.text}${delta}`;
    else events.push({ type, payload: { text: delta } });
  };
  const sink: EngineSink = {
    text: (delta) => append("assistant.delta", delta),
    reasoning: (delta) => append("reasoning.delta", delta),
    async emit(type, payload) {
      events.push({ type, payload });
    },
    async flush() {},
    async recordEngineRunRef(ref) {
      engineRunRefs.push(ref);
    },
    async recordProcess(pid) {
      pids.push(pid);
    },
    noteToolCall(tool, input) {
      toolCalls.push({ tool, input });
    },
    async requestApproval(request) {
      approvals.push(request);
      events.push({ type: "approval", payload: { kind: request.kind } });
      return decide(request);
    },
  };
  return { sink, events, approvals, engineRunRefs, pids, toolCalls };
}
