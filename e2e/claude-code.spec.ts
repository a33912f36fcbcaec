import { starterHeading } from "@/lib/workspace/starter-template";
import { patchedHeading } from "@/test/model-server/starter-patches";
import { test as base, expect } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";

/*
 * Claude Code from the composer, end to end: the binary the agent SDK ships, against the scripted
 * model server's Anthropic Messages API (the listed `anthropic:claude-haiku-4-5`), the approval card answered in the panel,
 * the edit in the preview and in the run's diff.
 */
const test = base.extend<{ agent: AgentPanel }>({
  agent: async ({ page }, use) => use(new AgentPanel(page)),
});

test("choose Claude Code, allow its Edit from the card, see the edit in the preview and the diff", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const engines = (await (await page.request.get("/api/engines")).json()) as {
    engines: { id: string; available: boolean; reason: string | null }[];
  };
  const claude = engines.engines.find((engine) => engine.id === "claude-code");
  test.skip(!claude?.available, `Claude Code is not available: ${claude?.reason}`);
  const app = await api.createApp(`Claude ${Date.now()}`);
  await workspace.goto(app.id);
  await workspace.expectPreviewHeading(starterHeading);

  // The model first: Claude Code is offered only for an Anthropic one.
  await agent.chooseModel("anthropic:claude-haiku-4-5");
  await agent.chooseEngine("claude-code");
  await expect(agent.approvalPolicy).toHaveValue("ask");
  await agent.send("Change the heading");

  const card = agent.approvalCards().first();
  await expect(card).toHaveAttribute("data-decision", "pending", { timeout: 60_000 });
  await expect(card).toContainText("Edit src/App.tsx");
  await expect(card).toContainText(patchedHeading);
  await card.getByTestId("approval-accept").click();
  await expect(card.getByTestId("approval-outcome")).toHaveText("Accepted");
  await expect(agent.lastTurn).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await expect(agent.lastReply).toContainText("Changed the heading.");
  await workspace.expectPreviewHeading(patchedHeading);

  const chip = agent.lastTurn.getByTestId("agent-files-changed");
  await expect(chip).toContainText("1 file changed");
  await chip.click();
  const dialog = page.getByTestId("agent-diff-dialog");
  await expect(
    dialog.getByTestId("diff-line-addition").filter({ hasText: patchedHeading }),
  ).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath("claude-code-run-diff.png") });
});
