import { describe, expect, it } from "vitest";
import { promptWithConversation } from "./compacted-conversation";
import type { EngineRunInput } from "./engine";

const inputWith = (messages: EngineRunInput["conversation"]["messages"]) =>
  ({
    input: "Make it blue",
    conversation: { appName: "Notes", messages },
  }) as EngineRunInput;

describe("promptWithConversation", () => {
  it("is the person's words alone when there is no history", () => {
    expect(promptWithConversation(inputWith([{ role: "user", content: "Make it blue" }]))).toBe(
      "Make it blue",
    );
  });

  it("puts the earlier turns before the new words", () => {
    const prompt = promptWithConversation(
      inputWith([
        { role: "user", content: "Add a title" },
        { role: "assistant", content: [{ type: "text", text: "Added it." }] },
        { role: "user", content: "Make it blue" },
      ]),
    );
    expect(prompt).toContain("earlier conversation about Notes");
    expect(prompt.indexOf("Person: Add a title")).toBeLessThan(prompt.indexOf("You: Added it."));
    expect(prompt.endsWith("The person now says:\n\nMake it blue")).toBe(true);
  });
});
