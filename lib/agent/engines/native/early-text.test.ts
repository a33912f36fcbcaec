import { describe, expect, it } from "vitest";
import type { StreamTextKind } from "./coalesce-event-stream";
import { EarlyText } from "./early-text";

function setUp() {
  const shown: [StreamTextKind, string][] = [];
  const disagreements: string[] = [];
  const earlyText = new EarlyText(
    (kind, text) => shown.push([kind, text]),
    (detail) => disagreements.push(detail),
  );
  return { earlyText, shown, disagreements };
}

describe("EarlyText", () => {
  it("shows text as it comes off the wire and strips the SDK's later copy, however it is cut", () => {
    const { earlyText, shown } = setUp();
    const sink = earlyText.open();
    sink?.text("reasoning", "Plan: ");
    sink?.text("text", "Hello, ");
    sink?.text("text", "wörld 🙂");
    expect(shown).toEqual([
      ["reasoning", "Plan: "],
      ["text", "Hello, "],
      ["text", "wörld 🙂"],
    ]);

    earlyText.startStep();
    expect(earlyText.unseen("reasoning", "Plan: ")).toBe("");
    expect(earlyText.unseen("text", "Hel")).toBe("");
    expect(earlyText.unseen("text", "lo, wörld 🙂")).toBe("");
    // Past what was shown early (the text after a tool call, say), the SDK's text is shown.
    expect(earlyText.unseen("text", " and more")).toBe(" and more");
  });

  it("matches each SDK step with its own response, in order", () => {
    const { earlyText } = setUp();
    const first = earlyText.open();
    first?.text("text", "I will read the file.");
    // The second response can stream before the SDK's copy of the first is consumed.
    const second = earlyText.open();
    second?.text("text", "I");

    earlyText.startStep();
    expect(earlyText.unseen("text", "I will read the file.")).toBe("");
    // Text after the first response's early part (after its tool call) is not the second's.
    expect(earlyText.unseen("text", "I")).toBe("I");
    earlyText.startStep();
    expect(earlyText.unseen("text", "I")).toBe("");
    expect(earlyText.unseen("text", " changed it.")).toBe(" changed it.");
    // A step without a tapped response (a provider we cannot tap) shows all its text.
    earlyText.startStep();
    expect(earlyText.unseen("text", "Done.")).toBe("Done.");
  });

  it("shows the rest of an SDK piece that runs past the early text", () => {
    const { earlyText } = setUp();
    earlyText.open()?.text("text", "Hello");
    earlyText.startStep();
    expect(earlyText.unseen("text", "Hello, world")).toBe(", world");
  });

  it("switches itself off when the SDK disagrees, showing the SDK's text from then on", () => {
    const { earlyText, shown, disagreements } = setUp();
    const sink = earlyText.open();
    sink?.text("text", "Hello");
    earlyText.startStep();
    expect(earlyText.unseen("text", "Help")).toBe("Help");
    expect(disagreements).toHaveLength(1);
    expect(sink?.active).toBe(false);
    sink?.text("text", " ignored");
    expect(shown).toEqual([["text", "Hello"]]);
    expect(earlyText.open()).toBeUndefined();
    earlyText.startStep();
    expect(earlyText.unseen("text", "next")).toBe("next");
  });
});
