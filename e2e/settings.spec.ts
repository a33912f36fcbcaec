import { patchedHeading } from "@/test/model-server/starter-patches";
import { expect, test } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";
import { modelServerPort, providersBaseURL } from "./support/servers";

// Against the server started with no model provider in its environment (playwright.config.ts).
test.use({ baseURL: providersBaseURL });

const savedKey = "sk-e2e-saved-endpoint-5521";

test("add an OpenAI-compatible endpoint in Settings; a run uses it at once; remove it", async ({
  page,
  api,
  workspace,
}) => {
  const app = await api.createApp(`Providers ${Date.now()}`);
  await workspace.goto(app.id);
  await expect(page.getByTestId("agent-no-model")).toBeVisible();
  await page.getByTestId("agent-open-settings").click();
  await expect(page).toHaveURL(/\/settings$/);

  const card = page.getByTestId("provider-compatible");
  await expect(card).toContainText("Not set");
  await card.getByTestId("provider-base-url").fill(`http://127.0.0.1:${modelServerPort}/v1`);
  await card.getByTestId("provider-key").fill(savedKey);
  await card.getByTestId("provider-models").fill("happy-path");
  await card.getByTestId("provider-test").click();
  await expect(card.getByTestId("provider-check")).toHaveAttribute("data-ok", "true");
  await expect(card.getByTestId("provider-check")).toContainText("Works");

  await card.getByTestId("provider-save").click();
  await expect(card.getByTestId("provider-saved")).toHaveText("Saved. New runs use it now.");
  await expect(card).toContainText("Saved here");
  await expect(card.getByTestId("provider-status")).toContainText(`Key …${savedKey.slice(-4)}`);
  await expect(card.getByTestId("provider-key")).toHaveValue("");
  const listed = await page.request.get("/api/settings/providers");
  expect(await listed.text()).not.toContain(savedKey);

  // Without a restart: the workspace's agent has a model now, and a run lands its change.
  await workspace.goto(app.id);
  const agent = new AgentPanel(page);
  await expect(page.getByTestId("agent-no-model")).toHaveCount(0);
  await agent.send("Change the heading");
  expect(await agent.waitForLastRun()).toBe("completed");
  await workspace.expectPreviewHeading(patchedHeading);
  const runs = (await (await page.request.get(`/api/apps/${app.id}/coding-agent/runs`)).json())
    .runs as { resolved_model_id: string }[];
  expect(runs.map((run) => run.resolved_model_id)).toEqual(["compatible:happy-path"]);

  await page.goto("/settings");
  await card.getByTestId("provider-remove").click();
  await page.getByTestId("provider-remove-dialog").getByTestId("confirm-dialog-confirm").click();
  await expect(card).toContainText("Not set");
  const models = (await (await page.request.get("/api/models")).json()).models as {
    id: string;
    available: boolean;
  }[];
  expect(models.find((model) => model.id === "auto")?.available).toBe(false);
});
