import { describe, expect, it } from "vitest";
import { describeStepContext, selectStepIndex } from "./chat-request";
import { checkExpectation } from "./check-expectation";

const user = (content: string) => ({ role: "user", content });
const assistant = { role: "assistant", content: "…", tool_calls: [] };
const toolResult = (content: string) => ({ role: "tool", tool_call_id: "call_0_0", content });

describe("selectStepIndex", () => {
  it("counts the assistant messages after the last user message", () => {
    expect(selectStepIndex([{ role: "system", content: "s" }, user("go")])).toBe(0);
    expect(selectStepIndex([user("go"), assistant, toolResult("{}")])).toBe(1);
    expect(
      selectStepIndex([user("go"), assistant, toolResult("{}"), assistant, toolResult("{}")]),
    ).toBe(2);
  });

  it("ignores earlier turns of the conversation", () => {
    expect(
      selectStepIndex([user("first"), assistant, toolResult("{}"), assistant, user("second")]),
    ).toBe(0);
    expect(
      selectStepIndex([user("first"), assistant, user("second"), assistant, toolResult("{}")]),
    ).toBe(1);
  });
});

describe("describeStepContext and checkExpectation", () => {
  const request = {
    model: "happy-path",
    messages: [
      user("Make it say hi"),
      assistant,
      toolResult(JSON.stringify({ content: '12: <h1 className="x">\n13:   Launch "now"' })),
    ],
    tools: [{ type: "function", function: { name: "read_file_range" } }],
  };

  it("spells out strings inside JSON tool results so file text matches as written", () => {
    const context = describeStepContext(request);
    expect(context).toMatchObject({
      stepIndex: 1,
      lastUserText: "Make it say hi",
      offeredTools: ["read_file_range"],
    });
    expect(context.toolResults).toContain('Launch "now"');
    expect(checkExpectation({ tool_result_includes: 'Launch "now"' }, context)).toBeNull();
  });

  it("says what is missing", () => {
    const context = describeStepContext(request);
    const problem = checkExpectation(
      {
        tool_result_includes: ["Launch", "Goodbye"],
        tool_result_excludes: "h1",
        tools_offered: ["apply_patch"],
      },
      context,
    );
    expect(problem).toContain('should contain "Goodbye"');
    expect(problem).toContain('should not contain "h1"');
    expect(problem).toContain("should offer apply_patch");
    expect(problem).not.toContain('contain "Launch"');
  });

  it("only looks at tool results after the last assistant message", () => {
    const context = describeStepContext({ ...request, messages: [...request.messages, assistant] });
    expect(context.toolResults).toBe("");
    expect(checkExpectation({ tool_result_includes: "Launch" }, context)).toContain(
      "received no tool results",
    );
  });
});
