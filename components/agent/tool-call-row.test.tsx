// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordedFailedRun, recordedPatchRetryRun, recordedRunId } from "./recorded-run-events";
import { createRunView, reduceRunEvents, type ToolCallItem } from "./run-event-reducer";
import { ToolCallRow } from "./tool-call-row";

afterEach(cleanup);

function toolItems(events = recordedPatchRetryRun()): ToolCallItem[] {
  return reduceRunEvents(createRunView(events[0]?.run_id ?? recordedRunId), events).items.filter(
    (item): item is ToolCallItem => item.kind === "tool",
  );
}

describe("ToolCallRow", () => {
  it("shows a running call in the present tense, shimmering, with nothing to click", () => {
    const running = toolItems(recordedPatchRetryRun().slice(0, 3))[0];
    render(<ToolCallRow item={running} />);
    const row = screen.getByTestId("agent-tool-row");
    expect(row.dataset.status).toBe("running");
    expect(row.textContent).toContain("Editing src/App.tsx");
    expect(within(row).queryByRole("button")).toBeNull();
    expect(row.querySelector("[aria-busy='true']")).not.toBeNull();
  });

  it("shows a failed patch with a one-line reason and readable details on click", () => {
    const failed = toolItems()[0];
    render(<ToolCallRow item={failed} onOpenDiff={vi.fn()} />);
    const row = screen.getByTestId("agent-tool-row");
    expect(row.dataset.status).toBe("failed");
    const reason = screen.getByTestId("agent-tool-row-reason");
    expect(reason.textContent).toBe(failed.failure?.message);
    expect(reason.textContent).toMatch(/^Hunk 1 of src\/App\.tsx: the hunk's context/);
    // One line: the rest is in the title and the expanded details.
    expect(reason.className).toContain("truncate");
    expect(screen.queryByTestId("agent-tool-row-details")).toBeNull();

    const button = within(row).getByRole("button");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    const details = screen.getByTestId("agent-tool-row-details");
    expect(details.textContent).toContain("Patch context not found");
    expect(details.textContent).toMatch(
      /src\/App\.tsx \(hunk 1\) — .*\(closest match at line 42\)/,
    );
    expect(details.textContent).toContain("<h1");
    expect(details.textContent).toContain("The agent was told to re-read src/App.tsx.");
    // Readable lines, never the payload as JSON.
    expect(details.textContent).not.toContain("{");
    expect(details.textContent).not.toContain("hunk_index");
  });

  it("opens the diff from a completed edit and shows its additions and deletions", () => {
    const edit = toolItems()[2];
    const onOpenDiff = vi.fn();
    render(<ToolCallRow item={edit} onOpenDiff={onOpenDiff} />);
    const row = screen.getByTestId("agent-tool-row");
    expect(row.textContent).toContain("Edit src/App.tsx");
    expect(within(row).getByTestId("diff-stat-additions").textContent).toBe("+1");
    expect(within(row).getByTestId("diff-stat-deletions").textContent).toBe("−1");
    expect(row.textContent).toMatch(/\d+ ms/);
    fireEvent.click(within(row).getByRole("button"));
    expect(onOpenDiff).toHaveBeenCalledWith(["src/App.tsx"]);
  });

  it("expands a completed edit instead when the run has no diff yet", () => {
    const edit = toolItems()[2];
    render(<ToolCallRow item={edit} />);
    fireEvent.click(within(screen.getByTestId("agent-tool-row")).getByRole("button"));
    expect(screen.getByTestId("agent-tool-row-details").textContent).toContain("src/App.tsx +1 −1");
  });

  it("lists the arguments a model got wrong", () => {
    const [, invalid] = toolItems(recordedFailedRun());
    render(<ToolCallRow item={invalid} />);
    fireEvent.click(within(screen.getByTestId("agent-tool-row")).getByRole("button"));
    const details = screen.getByTestId("agent-tool-row-details");
    expect(details.textContent).toContain("path: path is required");
    expect(details.textContent).toContain("Tool input validation failed");
  });

  it("shows a call the run ended under as stopped, not running", () => {
    const started = recordedPatchRetryRun().slice(0, 3);
    const [stopped] = toolItems([
      ...started,
      { ...started[2], seq: 4, type: "run.cancelled", payload: { message: "Stopped." } },
    ]);
    render(<ToolCallRow item={stopped} />);
    const row = screen.getByTestId("agent-tool-row");
    expect(row.dataset.status).toBe("interrupted");
    expect(row.textContent).toContain("Edit src/App.tsx");
    expect(row.textContent).not.toContain("Editing");
  });
});
