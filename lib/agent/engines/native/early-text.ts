import type { ResponseTextSink, StreamTextKind, StreamTextTap } from "./coalesce-event-stream";

/** One model response's early text, and how much of it the SDK has reported since. */
interface ResponseRecord {
  early: Record<StreamTextKind, string>;
  reported: Record<StreamTextKind, number>;
}

/**
 * Shows a run's text as it comes off the wire, and keeps the AI SDK's later copy of it from being
 * shown twice.
 *
 * Why: see {@link StreamTextTap}. The wire side (the provider's joiner) hands over each response's
 * text while the response is *early* — before any piece that could show as something else, such
 * as a tool call. The SDK later reports the same text, in the same order, as `text-delta` and
 * `reasoning-delta` parts of one step per response; {@link unseen} strips what was already shown
 * and lets through what was not (the text after a tool call, a response that was not tapped).
 *
 * Responses and steps are matched in order: the SDK starts a step when a response's stream gives
 * its first chunk, one step per streamed response. If the SDK ever reports text that does not
 * match what was shown, early text is switched off for the rest of the run, and the SDK's text is
 * shown from then on: a repeated word is better than a lost one. It is logged, to be fixed.
 */
export class EarlyText implements StreamTextTap {
  private readonly responses: ResponseRecord[] = [];
  private current: ResponseRecord | undefined;
  private enabled = true;

  constructor(
    private readonly show: (kind: StreamTextKind, text: string) => void,
    private readonly onDisagreement: (detail: string) => void = () => undefined,
  ) {}

  open(): ResponseTextSink | undefined {
    if (!this.enabled) return undefined;
    const record: ResponseRecord = {
      early: { text: "", reasoning: "" },
      reported: { text: 0, reasoning: 0 },
    };
    this.responses.push(record);
    const owner = this;
    return {
      get active() {
        return owner.enabled;
      },
      text(kind, text) {
        if (!owner.enabled || text === "") return;
        record.early[kind] += text;
        owner.show(kind, text);
      },
    };
  }

  /** The SDK started a step: its text parts are the next response's. */
  startStep(): void {
    this.current = this.responses.shift();
  }

  /** The part of text the SDK reports that the person has not been shown yet. */
  unseen(kind: StreamTextKind, text: string): string {
    const record = this.current;
    if (!record) return text;
    const early = record.early[kind];
    const reported = record.reported[kind];
    if (reported >= early.length) return text;
    // The characters of `text` that were shown early: all of it, or the early text's rest.
    const shown = Math.min(text.length, early.length - reported);
    if (early.startsWith(text.slice(0, shown), reported)) {
      record.reported[kind] += shown;
      return text.slice(shown);
    }
    this.enabled = false;
    this.current = undefined;
    this.responses.length = 0;
    this.onDisagreement(
      `the model's ${kind} as the SDK reports it differs from the ${kind} shown early, after ${reported} characters`,
    );
    return text;
  }
}
