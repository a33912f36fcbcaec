import type { Locator, Page } from "@playwright/test";
import { starterHeading } from "@/lib/workspace/starter-template";
import { test as base, expect } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";

/*
 * The workspace as a person finds it at the widths and settings they use: the dark theme, tabs
 * at 1024 px, preview widths, a visible save, messages queued during a run, and Retry after the
 * provider failed. Against the journey server and the scripted model server.
 */
const test = base.extend<{ agent: AgentPanel }>({
  agent: async ({ page }, use) => use(new AgentPanel(page)),
});

async function openApp(
  page: Page,
  api: { createApp(name: string): Promise<{ id: string }> },
  name: string,
): Promise<string> {
  const app = await api.createApp(`${name} ${Date.now()}`);
  await page.goto(`/apps/${app.id}`);
  await expect(page.getByTestId("workspace")).toBeVisible();
  return app.id;
}

const isDark = (page: Page) =>
  page.evaluate(() => document.documentElement.classList.contains("dark"));

/** The page background's lightness (0 black … 1 white), from the computed colour. */
async function backgroundLightness(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const canvas = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
    canvas.fillStyle = getComputedStyle(element).backgroundColor;
    canvas.fillRect(0, 0, 1, 1);
    const [red, green, blue] = canvas.getImageData(0, 0, 1, 1).data;
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255;
  });
}

async function width(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not on screen");
  return Math.round(box.width);
}

test("the dark theme follows the system until the toggle picks one, and code follows it", async ({
  page,
  api,
  workspace,
}) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await openApp(page, api, "Dark theme");
  expect(await isDark(page)).toBe(true);
  expect(await backgroundLightness(page.getByTestId("agent-panel"))).toBeLessThan(0.2);
  await workspace.openFile("src/App.tsx");
  const firstToken = page.getByTestId("code-viewer").locator(".code-token").first();
  await expect(firstToken).toBeVisible();
  const darkTokenColor = await firstToken.evaluate((element) => getComputedStyle(element).color);

  const toggle = page.getByTestId("theme-toggle");
  await expect(toggle).toHaveAttribute("data-theme-choice", "system");
  await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme-choice", "light");
  expect(await isDark(page)).toBe(false);
  expect(await backgroundLightness(page.getByTestId("agent-panel"))).toBeGreaterThan(0.9);
  expect(await firstToken.evaluate((element) => getComputedStyle(element).color)).not.toBe(
    darkTokenColor,
  );

  // The choice is kept across reloads and wins over the system setting.
  await page.reload();
  await expect(page.getByTestId("workspace")).toBeVisible();
  expect(await isDark(page)).toBe(false);
  await page.getByTestId("theme-toggle").click();
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme-choice", "dark");
  await page.emulateMedia({ colorScheme: "light" });
  expect(await isDark(page)).toBe(true);
  await page.goto("/");
  expect(await isDark(page)).toBe(true);
  // Back to the system's setting.
  await page.getByTestId("theme-toggle").click();
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme-choice", "system");
  expect(await isDark(page)).toBe(false);
});

test("at 1024 px: agent, preview and code as tabs, preview widths, a visible save, a solid gutter", async ({
  page,
  api,
  workspace,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openApp(page, api, "Small screen");

  await expect(page.getByTestId("tab-agent")).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("layout-split")).toHaveCount(0);
  expect(await width(page.getByTestId("agent-panel"))).toBeGreaterThan(1000);
  await expect(page.getByTestId("preview-pane")).toBeHidden();

  await page.getByTestId("tab-preview").click();
  await expect(page.getByTestId("agent-panel")).toBeHidden();
  expect(await width(page.getByTestId("preview-pane"))).toBeGreaterThan(1000);
  await workspace.expectPreviewHeading(starterHeading);
  const viewport = page.getByTestId("preview-viewport");
  await page.getByTestId("preview-width-mobile").click();
  await expect.poll(() => width(viewport)).toBe(390);
  expect(await width(workspace.previewFrameElement)).toBe(390);
  await page.getByTestId("preview-width-tablet").click();
  await expect.poll(() => width(viewport)).toBe(768);
  await page.getByTestId("preview-width-desktop").click();
  await expect.poll(() => width(viewport)).toBeGreaterThan(1000);

  await page.getByTestId("tab-code").click();
  await expect(page.getByTestId("file-tree")).toBeVisible();
  await workspace.openFile("src/App.tsx");
  await workspace.startEditing();
  await workspace.editorContent.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.insertText("\n// saved at 1024 px\n");
  const status = page.getByTestId("save-status");
  await expect(status).toBeVisible();
  await expect(status.locator(":visible", { hasText: /Unsaved/ })).toHaveCount(1);
  // Whichever form the width allows, the words on screen say it saved.
  await page.getByTestId("save-file").click();
  await expect(status.locator(":visible", { hasText: /^Saved/ })).toHaveCount(1);

  // The line numbers are painted on a solid background: code scrolled sideways goes under them.
  const gutterBackground = await page
    .locator('[data-testid="code-editor"] .cm-gutters')
    .evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(gutterBackground).not.toBe("rgba(0, 0, 0, 0)");
  expect(gutterBackground).not.toBe("transparent");
});

test("a message typed during a run is queued, can be removed, and goes out when the run ends", async ({
  page,
  api,
  agent,
}) => {
  const appId = await openApp(page, api, "Queued message");
  await agent.chooseModel("compatible:agent-slow-reply");
  await agent.send("Look at the app");
  await expect(agent.stopButton).toBeVisible();

  await agent.input.fill("Now tell me about the header");
  await agent.input.press("Enter");
  const queued = page.getByTestId("agent-queued");
  await expect(queued).toHaveCount(1);
  await expect(queued).toContainText("Now tell me about the header");
  await expect(agent.input).toHaveValue("");
  await agent.input.fill("Never mind this one");
  await page.getByTestId("agent-queue").click();
  await expect(queued).toHaveCount(2);
  await queued.nth(1).getByTestId("agent-queued-remove").click();
  await expect(queued).toHaveCount(1);

  // The first run ends; the queued message becomes the next turn by itself.
  await expect(agent.turns).toHaveCount(2, { timeout: 60_000 });
  await expect(queued).toHaveCount(0);
  await expect(agent.lastTurn.getByTestId("agent-user-message")).toHaveText(
    "Now tell me about the header",
  );
  expect(await agent.waitForLastRun()).toBe("completed");
  const runs = (await (await page.request.get(`/api/apps/${appId}/coding-agent/runs`)).json())
    .runs as { input: string; status: string }[];
  expect(runs.map((run) => [run.input, run.status])).toEqual([
    ["Look at the app", "completed"],
    ["Now tell me about the header", "completed"],
  ]);
});

test("Retry after the provider failed runs the same words again; a run that changed nothing says so", async ({
  page,
  api,
  agent,
}) => {
  const appId = await openApp(page, api, "Retry");
  await agent.chooseModel("compatible:agent-outage");
  await agent.send("Check the heading");
  expect(await agent.waitForLastRun()).toBe("failed");
  await expect(agent.lastTurn.getByTestId("agent-run-failed")).toBeVisible();

  await agent.lastTurn.getByTestId("agent-retry").click();
  await expect(agent.turns).toHaveCount(2);
  expect(await agent.waitForLastRun()).toBe("completed");
  await expect(agent.lastTurn.getByTestId("agent-user-message")).toHaveText("Check the heading");
  await expect(agent.lastTurn).toContainText("The provider is back.");
  await expect(agent.lastTurn.getByTestId("agent-no-changes")).toBeVisible();
  await expect(agent.lastTurn.getByTestId("agent-retry")).toHaveCount(0);

  // Neither run changed a file, so neither left a checkpoint to restore.
  const checkpoints = (
    await (await page.request.get(`/api/apps/${appId}/coding-agent/checkpoints`)).json()
  ).checkpoints as { kind: string }[];
  expect(checkpoints.filter((checkpoint) => checkpoint.kind !== "manual")).toEqual([]);
});
