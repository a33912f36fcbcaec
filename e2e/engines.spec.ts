import { starterHeading } from "@/lib/workspace/starter-template";
import { test as base, expect } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";

/*
 * The engine menu and an approval card, against the production build with the TEST-ONLY scripted
 * folder engine (PATCHWORK_TEST_ENGINES=1 in playwright.config.ts): it asks to replace the
 * starter's heading and edits the file only once the card is accepted.
 */
const test = base.extend<{ agent: AgentPanel }>({
  agent: async ({ page }, use) => use(new AgentPanel(page)),
});

const approvedHeading = "Approved by the scripted engine";

test("choose an engine, answer its approval card, see the edit; the card survives a reload", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const app = await api.createApp(`Engines ${Date.now()}`);
  await workspace.goto(app.id);
  await workspace.expectPreviewHeading(starterHeading);

  await test.step("the menu lists the engines; one that cannot use the model is greyed with what it needs", async () => {
    await agent.chooseModel("compatible:happy-path");
    await expect(agent.engineMenu).toHaveValue("native");
    await expect(agent.engineOption("native")).toBeEnabled();
    await expect(agent.engineOption("scripted-test")).toBeEnabled();
    await expect(agent.engineOption("claude-code")).toBeDisabled();
    await agent.root.getByTestId("engine-unavailable-reasons").locator("summary").click();
    await expect(agent.engineReason("claude-code")).toContainText("Anthropic Messages API");
  });

  await test.step("choose the scripted engine; the approval policy appears", async () => {
    await agent.chooseEngine("scripted-test");
    await expect(agent.approvalPolicy).toHaveValue("ask");
  });

  await test.step("the card shows the diff; Accept applies it and the preview follows", async () => {
    await agent.send("Change the heading");
    const card = agent.approvalCards().first();
    await expect(card).toHaveAttribute("data-decision", "pending");
    await expect(card).toContainText("Edit src/App.tsx");
    await expect(card).toContainText(approvedHeading);
    await card.getByTestId("approval-accept").click();
    await expect(card).toHaveAttribute("data-decision", "accept");
    await expect(card.getByTestId("approval-outcome")).toHaveText("Accepted");
    await expect(agent.lastTurn).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await workspace.expectPreviewHeading(approvedHeading);
  });

  await test.step("after a reload the answered card is still there", async () => {
    await page.reload();
    const card = agent.approvalCards().first();
    await expect(card).toHaveAttribute("data-decision", "accept");
    await expect(card.getByTestId("approval-outcome")).toHaveText("Accepted");
  });
});
