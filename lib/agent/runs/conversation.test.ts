import { describe, expect, it } from "vitest";
import { compactConversation } from "./conversation";

const turn = (index: number, toolNote = "x".repeat(100)) => ({
  user: `request ${index}`,
  assistant: `reply ${index} ${"y".repeat(50)}`,
  tools: [toolNote],
});

describe("compactConversation", () => {
  it("keeps every turn with its tool notes when within budget", () => {
    const messages = compactConversation([turn(1), turn(2)], 10_000);
    expect(messages).toHaveLength(4);
    expect(messages[1].content).toContain("[Tools used:");
  });

  it("drops the oldest tool output before any user words", () => {
    const turns = [turn(1), turn(2), turn(3)];
    const full = compactConversation(turns, 10_000);
    const budget = JSON.stringify(full).length / 2;
    const messages = compactConversation(turns, Math.floor(budget));
    const users = messages
      .filter((message) => message.role === "user")
      .map((message) => message.content);
    expect(users).toEqual(["request 1", "request 2", "request 3"]);
    expect(messages[1].content).not.toContain("[Tools used:");
    expect(messages[5].content).toContain("[Tools used:");
  });

  it("drops whole oldest turns last, keeping the newest", () => {
    const turns = [turn(1), turn(2), turn(3)];
    const messages = compactConversation(turns, 10);
    const users = messages
      .filter((message) => message.role === "user")
      .map((message) => message.content);
    expect(users).toEqual(["request 3"]);
  });

  it("returns nothing when even one request does not fit", () => {
    expect(compactConversation([turn(1)], 3)).toEqual([]);
  });
});
