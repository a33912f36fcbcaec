import { starterHeading } from "@/lib/workspace/starter-template";
import { expect, test } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";

/** The starter's App with a render error on a known line (6). */
const throwingApp = [
  'import { useState } from "react";',
  "",
  "export function App() {",
  "  const [ready] = useState(false);",
  "  if (!ready) {",
  '    throw new Error("The pricing table has no plans");',
  "  }",
  "  return <h1>Ready</h1>;",
  "}",
  "",
].join("\n");

test("an app that throws while rendering: the pane says so with file and line, and Fix with agent sends the error", async ({
  page,
  api,
  workspace,
}) => {
  const app = await api.createApp(`Throws ${Date.now()}`);
  await api.saveFile(app.id, "src/App.tsx", throwingApp);
  await workspace.goto(app.id);

  const overlay = page.getByTestId("preview-runtime-overlay");
  await expect(overlay).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("preview-runtime-status")).toContainText("while running");
  await expect(page.getByTestId("preview-status")).not.toContainText("Built just now");
  const first = overlay.getByTestId("preview-diagnostic").first();
  await expect(first).toContainText("The pricing table has no plans");
  await expect(first).toContainText("src/App.tsx:6");

  // The location opens the file at that line.
  await first.getByRole("button").click();
  await expect(page.getByTestId("open-file-path")).toHaveText("src/App.tsx");

  await overlay.getByTestId("preview-fix-with-agent").click();
  const agent = new AgentPanel(page);
  await expect(agent.turns).toHaveCount(1);
  await expect(agent.lastTurn.getByTestId("agent-user-message")).toContainText(
    "The pricing table has no plans",
  );
  const runs = (await (await page.request.get(`/api/apps/${app.id}/coding-agent/runs`)).json())
    .runs as { input: string }[];
  expect(runs).toHaveLength(1);
  expect(runs[0].input).toContain("src/App.tsx:6");
  expect(runs[0].input).toContain("The pricing table has no plans");
  await agent.waitForLastRun();
});

test("the builder ignores error reports from anywhere but its own preview frame", async ({
  page,
  api,
  workspace,
}) => {
  const app = await api.createApp(`Forged ${Date.now()}`);
  await workspace.goto(app.id);
  await workspace.expectPreviewHeading(starterHeading);
  await expect(page.getByTestId("preview-status")).toContainText("Built");
  // The same message shape, posted by the builder's own window and by a frame it did not make.
  await page.evaluate(() => {
    const report = {
      type: "patchwork:preview-error",
      kind: "error",
      message: "forged by the page",
      frames: [],
    };
    window.postMessage(report, "*");
    const stranger = document.createElement("iframe");
    stranger.srcdoc = `<script>parent.postMessage(${JSON.stringify(report)}, "*")</script>`;
    document.body.append(stranger);
  });
  await page.waitForTimeout(1000);
  await expect(page.getByTestId("preview-runtime-overlay")).toHaveCount(0);
  await expect(page.getByTestId("preview-status")).toContainText("Built");

  // A malformed report from the real frame is ignored too; a well-formed one is shown.
  const frame = await workspace.previewFrame();
  await frame.evaluate(() => {
    parent.postMessage({ type: "patchwork:preview-error", kind: "error", message: 42 }, "*");
  });
  await page.waitForTimeout(500);
  await expect(page.getByTestId("preview-runtime-overlay")).toHaveCount(0);
  await frame.evaluate(() => {
    console.error("shown because the frame is ours");
  });
  await expect(page.getByTestId("preview-runtime-overlay")).toContainText(
    "shown because the frame is ours",
  );
});
