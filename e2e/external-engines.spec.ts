import { starterHeading } from "@/lib/workspace/starter-template";
import { patchedHeading } from "@/test/model-server/starter-patches";
import { test as base, expect } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";

/*
 * Each external engine from the composer, end to end, against the scripted model server: the
 * real CLIs (`npm run engines:install`; Claude Code's binary comes with its agent SDK), the
 * approval card answered in the panel, the edit in the preview and in the run's diff.
 */
const test = base.extend<{ agent: AgentPanel }>({
  agent: async ({ page }, use) => use(new AgentPanel(page)),
});

const engines = [
  // Codex speaks the Responses API; the scripted server plays it under this model.
  { id: "codex", label: "Codex", modelId: "compatible:codex-edit-heading" },
  { id: "opencode", label: "OpenCode", modelId: "compatible:opencode-edit-heading" },
  // The listed Anthropic model, played by the scripted server through ANTHROPIC_BASE_URL.
  { id: "claude-code", label: "Claude Code", modelId: "anthropic:claude-haiku-4-5" },
] as const;

for (const engine of engines) {
  test(`choose ${engine.label}, accept its approval card, see the edit in the preview and the diff`, async ({
    page,
    api,
    workspace,
    agent,
  }) => {
    const answer = (await (await page.request.get("/api/engines")).json()) as {
      engines: { id: string; available: boolean; reason: string | null }[];
    };
    const status = answer.engines.find((candidate) => candidate.id === engine.id);
    // `npm test` installs the pinned CLIs first; a missing one is a failure, never a skip.
    expect(status?.available, `${engine.label} is not available: ${status?.reason}`).toBe(true);
    const app = await api.createApp(`${engine.label} ${Date.now()}`);
    await workspace.goto(app.id);
    await workspace.expectPreviewHeading(starterHeading);

    // The model first: an engine is offered only for a model it can use.
    await agent.chooseModel(engine.modelId);
    await agent.chooseEngine(engine.id);
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
    await page.screenshot({ path: test.info().outputPath(`${engine.id}-run-diff.png`) });
  });
}
