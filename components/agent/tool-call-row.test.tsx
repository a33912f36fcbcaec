// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordedCancelledRun, recordedPatchRetryRun, recordedRunId } from "./recorded-run-events";
import { createRunView, reduceRunEvents, type ToolCallItem } from "./run-event-reducer";
import { ToolCallRow } from "./tool-call-row";

afterEach(cleanup);

function toolItems(events = recordedPatchRetryRun()): ToolCallItem[] {
  return reduceRunEvents(createRunView(recordedRunId), events).items.filter(
    (item): item is ToolCallItem => item.kind === "tool",
  );
}

describe("ToolCallRow", () => {
  it("shows a running call in the present tense, shimmering, with nothing to click", () => {
    const running = toolItems(recordedPatchRetryRun().slice(0, 5))[0];
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
    expect(screen.getByTestId("agent-tool-row-reason").textContent).toBe(
      "Hunk 1 of src/App.tsx does not match the file: the context lines differ.",
    );
    expect(screen.queryByTestId("agent-tool-row-details")).toBeNull();

    const button = within(row).getByRole("button");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    const details = screen.getByTestId("agent-tool-row-details");
    expect(details.textContent).toContain("Patch context mismatch");
    expect(details.textContent).toContain(
      "src/App.tsx (hunk 1) — context does not match (closest match at line 12)",
    );
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
    expect(row.textContent).toContain("3 ms");
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
    const [invalid, stopped] = toolItems(recordedCancelledRun());
    render(<ToolCallRow item={invalid} />);
    fireEvent.click(within(screen.getByTestId("agent-tool-row")).getByRole("button"));
    expect(screen.getByTestId("agent-tool-row-details").textContent).toContain(
      "path: path is required",
    );
    cleanup();
    render(<ToolCallRow item={stopped} />);
    expect(screen.getByTestId("agent-tool-row").dataset.status).toBe("interrupted");
    expect(screen.getByTestId("agent-tool-row").textContent).toContain("Read src/App.tsx");
  });
});
