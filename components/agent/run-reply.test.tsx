// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordedPatchRetryRun, recordedRunId } from "./recorded-run-events";
import { createRunView, reduceRunEvents } from "./run-event-reducer";
import { RunReply } from "./run-reply";

afterEach(cleanup);

const viewAfter = (count: number) =>
  reduceRunEvents(createRunView(recordedRunId), recordedPatchRetryRun().slice(0, count));

function rowSummary() {
  return screen
    .getAllByTestId("agent-tool-row")
    .map((row) => `${row.dataset.tool}:${row.dataset.status}`);
}

describe("RunReply", () => {
  it("shows Thinking… until the first text or tool arrives", () => {
    const { rerender } = render(<RunReply view={viewAfter(0)} onOpenDiff={vi.fn()} />);
    expect(screen.getByTestId("agent-thinking").textContent).toMatch(/^Thinking…\d+ s$/);
    // Accepted only: still thinking.
    rerender(<RunReply view={viewAfter(1)} onOpenDiff={vi.fn()} />);
    expect(screen.getByTestId("agent-thinking")).toBeTruthy();
    rerender(<RunReply view={viewAfter(2)} onOpenDiff={vi.fn()} />);
    expect(screen.queryByTestId("agent-thinking")).toBeNull();
    expect(screen.getByTestId("agent-reply").textContent).toContain("I'll change the heading");
  });

  it("renders a recorded run as text and one row per tool call, without lifecycle cards", () => {
    const onOpenDiff = vi.fn();
    render(<RunReply view={viewAfter(Number.POSITIVE_INFINITY)} onOpenDiff={onOpenDiff} />);
    expect(rowSummary()).toEqual([
      "apply_patch:failed",
      "read_file_range:completed",
      "apply_patch:completed",
    ]);
    const reply = screen.getByTestId("agent-reply");
    expect(reply.dataset.phase).toBe("completed");
    expect(reply.textContent).toContain("I changed the heading in src/App.tsx");
    for (const hidden of ["run.accepted", "checkpoint", "revision_id", "rev-result", "post_run"]) {
      expect(reply.textContent).not.toContain(hidden);
    }
    expect(screen.queryByTestId("agent-thinking")).toBeNull();
    expect(screen.getByTestId("agent-files-changed").textContent).toContain("1 file changed");
    expect(screen.getByTestId("agent-usage").textContent).toBe("7.4K in · 295 out");

    fireEvent.click(screen.getByTestId("agent-files-changed"));
    expect(onOpenDiff).toHaveBeenLastCalledWith();
    fireEvent.click(screen.getAllByTestId("agent-tool-row")[2].querySelector("button")!);
    expect(onOpenDiff).toHaveBeenLastCalledWith(["src/App.tsx"]);
  });

  it("renders the same rows when the events came out of order or twice", () => {
    const events = recordedPatchRetryRun();
    const scrambled = [...events].reverse().concat(events.slice(3, 9));
    render(
      <RunReply
        view={reduceRunEvents(createRunView(recordedRunId), scrambled)}
        onOpenDiff={vi.fn()}
      />,
    );
    expect(rowSummary()).toEqual([
      "apply_patch:failed",
      "read_file_range:completed",
      "apply_patch:completed",
    ]);
    expect(screen.getAllByTestId("agent-tool-row-reason")).toHaveLength(1);
  });

  it("shows Thinking… again after a tool finishes and before the model answers", () => {
    render(<RunReply view={viewAfter(8)} onOpenDiff={vi.fn()} />);
    expect(rowSummary()).toEqual(["apply_patch:failed", "read_file_range:completed"]);
    expect(screen.getByTestId("agent-thinking")).toBeTruthy();
  });
});
