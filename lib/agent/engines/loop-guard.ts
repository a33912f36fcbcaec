/**
 * Catches a model repeating itself: the same tool with the same arguments several times in a
 * row. The third identical call is answered with a warning instead of being run (the model is told
 * once); a fourth ends the run with CODING_AGENT_LOOP_DETECTED. Any different call resets it.
 */
export class LoopGuard {
  private lastKey: string | null = null;
  private repeats = 0;

  constructor(private readonly warnAt = 3) {}

  /** `run`: go ahead; `warn`: answer with the warning instead; `stop`: end the run. */
  check(toolName: string, input: unknown): "run" | "warn" | "stop" {
    const key = `${toolName}\u0000${stableJson(input)}`;
    this.repeats = key === this.lastKey ? this.repeats + 1 : 1;
    this.lastKey = key;
    if (this.repeats < this.warnAt) return "run";
    return this.repeats === this.warnAt ? "warn" : "stop";
  }
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same call. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) =>
      left < right ? -1 : left > right ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
