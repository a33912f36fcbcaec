import { starterHeading } from "@/lib/workspace/starter-template";
import { patchedHeading } from "@/test/model-server/starter-patches";
import { test as base, expect } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";

/*
 * OpenCode from the composer, end to end: the real `opencode serve` (npm run engines:install)
 * against the scripted model server's chat completions, the approval card answered in the panel,
 * the edit in the preview and in the run's diff.
 */
const test = base.extend<{ agent: AgentPanel }>({
  agent: async ({ page }, use) => use(new AgentPanel(page)),
});

test("choose OpenCode, accept its approval card, see the edit in the preview and the diff", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const engines = (await (await page.request.get("/api/engines")).json()) as {
    engines: { id: string; available: boolean }[];
  };
  const opencode = engines.engines.find((engine) => engine.id === "opencode");
  test.skip(!opencode?.available, "OpenCode is not installed: run npm run engines:install");
  const app = await api.createApp(`OpenCode ${Date.now()}`);
  await workspace.goto(app.id);
  await workspace.expectPreviewHeading(starterHeading);

  await agent.chooseEngine("opencode");
  await expect(agent.approvalPolicy).toHaveValue("ask");
  await agent.chooseModel("compatible:opencode-edit-heading");
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
  await page.screenshot({ path: test.info().outputPath("opencode-run-diff.png") });
});
