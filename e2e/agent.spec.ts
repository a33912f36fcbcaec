import type { APIRequestContext, Page, Route } from "@playwright/test";
import { starterHeading } from "@/lib/workspace/starter-template";
import { patchedHeading } from "@/test/model-server/starter-patches";
import { test as base, expect } from "./fixtures";
import { AgentPanel } from "./pages/agent-panel";

/*
 * The agent panel against a production build and the scripted model server (see
 * playwright.config.ts): models are `compatible:<scenario>`, and Auto picks happy-path.
 */
const test = base.extend<{ agent: AgentPanel }>({
  agent: async ({ page }, use) => use(new AgentPanel(page)),
});

const placeholder = "Plan, @ for context, / for commands";

interface RunJson {
  id: string;
  status: string;
  input: string;
  requested_model_id: string;
  resolved_model_id: string;
}

async function listRuns(request: APIRequestContext, appId: string): Promise<RunJson[]> {
  const response = await request.get(`/api/apps/${appId}/coding-agent/runs`);
  expect(response.status()).toBe(200);
  return (await response.json()).runs;
}

async function lastRunId(page: Page, appId: string): Promise<string> {
  const runs = await listRuns(page.request, appId);
  return runs.at(-1)?.id as string;
}

/** Creates an app through the API and opens its workspace, showing the starter. */
async function openNewApp(
  page: Page,
  api: { createApp(name: string): Promise<{ id: string }> },
  workspace: { goto(id: string): Promise<void>; expectPreviewHeading(text: string): Promise<void> },
  name: string,
): Promise<string> {
  const app = await api.createApp(`${name} ${Date.now()}`);
  await workspace.goto(app.id);
  await workspace.expectPreviewHeading(starterHeading);
  await expect(page.getByTestId("agent-panel")).toBeVisible();
  return app.id;
}

async function pageHeights(page: Page) {
  return page.evaluate(() => ({
    document: document.documentElement.scrollHeight,
    body: document.body.scrollHeight,
    viewport: window.innerHeight,
  }));
}

test("send a message: Thinking, streamed reply, tool rows, the preview follows, the diff opens", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const appId = await openNewApp(page, api, workspace, "Agent journey");

  await test.step("the composer is ready, with Auto picked", async () => {
    await expect(agent.input).toHaveAttribute("placeholder", placeholder);
    await expect(agent.modelPicker).toHaveAttribute("data-model-id", "auto");
    await expect(agent.root.getByTestId("agent-empty")).toBeVisible();
  });

  // Hold the stream back a moment, so the Thinking state is on screen long enough to see.
  let releaseStream: () => void = () => {};
  const streamHeld = new Promise<void>((resolve) => {
    releaseStream = resolve;
  });
  await page.route("**/coding-agent/runs/*/stream", async (route: Route) => {
    await streamHeld;
    await route.continue();
  });
  await agent.recordToolStatuses();

  await test.step("send with Enter: Thinking…, then the reply streams in", async () => {
    await agent.send("Make the hero section dark and add a signup button");
    await expect(agent.input).toHaveValue("");
    await expect(agent.lastTurn.getByTestId("agent-user-message")).toHaveText(
      "Make the hero section dark and add a signup button",
    );
    await expect(agent.lastTurn.getByTestId("agent-thinking")).toContainText("Thinking…");
    // The seconds the run has been going, so a slow model reads as slow rather than stuck.
    await expect(agent.lastTurn.getByTestId("agent-thinking-elapsed")).toHaveText(/^\d+ s$/);
    await expect(agent.stopButton).toBeVisible();
    await agent.root.screenshot({ path: test.info().outputPath("thinking.png") });
    releaseStream();
    await expect(agent.lastReply).toContainText("I'll update the heading.");
    await expect(agent.lastTurn.getByTestId("agent-thinking")).toHaveCount(0, { timeout: 30_000 });
  });
  await page.unroute("**/coding-agent/runs/*/stream");

  await test.step("one row per tool call, settled as done, with the edit's +/−, then the check", async () => {
    expect(await agent.waitForLastRun()).toBe("completed");
    // The model's two calls, then the check every run that changed files ends with.
    await expect(agent.toolRows()).toHaveCount(3);
    const check = agent.toolRow("check_app", "completed");
    await expect(check).toContainText("Checked: builds, types, no runtime errors");
    const thumbnail = check.getByTestId("agent-check-screenshot");
    await expect(thumbnail).toBeVisible();
    expect(await thumbnail.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(
      1024,
    );
    await expect(agent.toolRow("read_file_range", "completed")).toContainText("Read src/App.tsx");
    const edit = agent.toolRow("apply_patch", "completed");
    await expect(edit).toContainText("Edit src/App.tsx");
    await expect(edit.getByTestId("diff-stat-additions")).toHaveText("+1");
    await expect(edit.getByTestId("diff-stat-deletions")).toHaveText("−1");
    await expect(agent.lastReply).toContainText(`to “${patchedHeading}”`);
    // Lifecycle events never render as cards.
    await expect(agent.lastReply).not.toContainText(/run\.accepted|checkpoint|revision_id/);
    await expect(agent.lastTurn.getByTestId("agent-usage")).toHaveText(/in · .* out/);
    const statuses = await agent.recordedToolStatuses();
    expect(statuses).toHaveLength(3);
    for (const history of statuses) expect(history.at(-1)).toBe("completed");
  });

  await test.step("the preview shows the edit without reloading the page", async () => {
    await workspace.expectPreviewHeading(patchedHeading);
    await expect(agent.lastTurn).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("agent-panel-completed.png") });
    await test.info().attach("agent panel after a completed run", {
      body: await agent.root.screenshot(),
      contentType: "image/png",
    });
    await page.screenshot({ path: "test-results/agent-panel-completed.png" });
  });

  await test.step("the files-changed chip and the edit row open the run's diff", async () => {
    const chip = agent.lastTurn.getByTestId("agent-files-changed");
    await expect(chip).toContainText("1 file changed");
    await chip.click();
    const dialog = page.getByTestId("agent-diff-dialog");
    await expect(dialog.getByTestId("diff-file")).toHaveCount(1);
    await expect(
      dialog.locator('[data-testid="diff-file"][data-path="src/App.tsx"]'),
    ).toBeVisible();
    await expect(
      dialog.getByTestId("diff-line-addition").filter({ hasText: patchedHeading }),
    ).toHaveCount(1);
    await expect(
      dialog.getByTestId("diff-line-deletion").filter({ hasText: starterHeading }),
    ).toHaveCount(1);
    await page.screenshot({ path: test.info().outputPath("run-diff.png") });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await agent.toolRow("apply_patch", "completed").getByRole("button").click();
    await expect(dialog.getByTestId("diff-file")).toHaveCount(1);
    await page.keyboard.press("Escape");
  });

  await test.step("the run used Auto, which resolved to the first scripted model", async () => {
    const [run] = await listRuns(page.request, appId);
    expect(run.requested_model_id).toBe("auto");
    expect(run.resolved_model_id).toBe("compatible:happy-path");
  });
});

test("reload mid-run and the run keeps streaming; Stop ends a second run", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const appId = await openNewApp(page, api, workspace, "Agent reload");
  await agent.chooseModel("compatible:agent-slow-reply");
  await agent.recordToolStatuses();

  await test.step("the run starts: tool rows shimmer while they run, then text streams", async () => {
    await agent.send("Plan a darker hero with a signup button");
    await expect(agent.toolRow("run_verification", "completed")).toBeVisible({ timeout: 60_000 });
    const statuses = await agent.recordedToolStatuses();
    expect(statuses.some((history) => history.join(",") === "running,completed")).toBe(true);
    await expect(agent.lastReply).toContainText("Here is a plan", { timeout: 30_000 });
    await test.info().attach("agent panel mid-run", {
      body: await agent.root.screenshot(),
      contentType: "image/png",
    });
    await page.screenshot({ path: "test-results/agent-panel-mid-run.png" });
  });

  await test.step("reload: the panel reopens the active run's stream and it finishes", async () => {
    const before = (await agent.lastReply.textContent()) ?? "";
    expect(before).not.toContain("easy to review");
    await page.reload();
    await expect(agent.root).toBeVisible();
    await expect(agent.lastTurn).toHaveAttribute("data-status", "running");
    await expect(agent.stopButton).toBeVisible();
    await expect(agent.lastReply).toContainText("Here is a plan");
    await expect(agent.lastReply).toContainText("easy to review", { timeout: 30_000 });
    expect(await agent.waitForLastRun()).toBe("completed");
    // The stream replayed from the start after the reload: every row once, nothing twice.
    await expect(agent.toolRows()).toHaveCount(2);
    await expect(agent.lastReply.getByTestId("agent-code-block")).toContainText("SignupButton");
  });

  await test.step("the model choice is remembered for this app", async () => {
    await expect(agent.modelPicker).toHaveAttribute("data-model-id", "compatible:agent-slow-reply");
  });

  await test.step("Stop ends a second run; the panel says nothing was changed", async () => {
    await agent.send("Now plan a footer");
    await expect(agent.turns).toHaveCount(2);
    await expect(agent.lastReply.getByTestId("agent-code-block")).toBeVisible({ timeout: 30_000 });
    await test.info().attach("agent panel mid-run, streaming a code block", {
      body: await agent.root.screenshot(),
      contentType: "image/png",
    });
    await page.screenshot({ path: "test-results/agent-panel-mid-run-code.png" });
    await agent.stopButton.click();
    expect(await agent.waitForLastRun()).toBe("cancelled");
    await expect(agent.lastTurn.getByTestId("agent-run-cancelled")).toContainText(
      "no files were changed",
    );
    await expect(agent.lastReply).not.toContainText("easy to review");
  });

  await test.step("Esc stops a run too", async () => {
    await agent.send("And plan a header");
    await expect(agent.turns).toHaveCount(3);
    await expect(agent.lastReply.getByTestId("agent-code-block")).toBeVisible({ timeout: 30_000 });
    await page.keyboard.press("Escape");
    expect(await agent.waitForLastRun()).toBe("cancelled");
  });

  await test.step("Retry sends a stopped run's words again", async () => {
    await agent.lastTurn.getByTestId("agent-retry").click();
    await expect(agent.turns).toHaveCount(4);
    await expect(agent.lastTurn.getByTestId("agent-user-message")).toContainText(
      "And plan a header",
    );
    expect(await agent.waitForLastRun()).toBe("completed");
    await expect(agent.lastTurn.getByTestId("agent-retry")).toHaveCount(0);
  });

  await test.step("the runs are stored as they ended", async () => {
    const runs = await listRuns(page.request, appId);
    expect(runs.map((run) => run.status)).toEqual([
      "completed",
      "cancelled",
      "cancelled",
      "completed",
    ]);
  });
});

test("restore the pre-run checkpoint with /undo and from the list; the preview follows", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const appId = await openNewApp(page, api, workspace, "Agent checkpoints");
  await agent.send("Change the heading");
  expect(await agent.waitForLastRun()).toBe("completed");
  await workspace.expectPreviewHeading(patchedHeading);
  const runId = await lastRunId(page, appId);

  await test.step("/undo asks first, then restores the checkpoint before the last run", async () => {
    await agent.input.fill("/u");
    await expect(agent.root.getByTestId("agent-command-menu")).toContainText("/undo");
    await agent.input.fill("/undo");
    await agent.input.press("Enter");
    const dialog = page.getByTestId("agent-restore-dialog");
    await expect(dialog).toContainText("Undo the last run?");
    await expect(dialog).toContainText("Change the heading");
    await agent.confirmRestore();
    await workspace.expectPreviewHeading(starterHeading);
    await expect(agent.root.getByTestId("agent-note")).toContainText("before that run");
  });

  await test.step("the checkpoints list shows kind, time and the run's words; restore after", async () => {
    const list = await agent.openCheckpoints();
    const entries = list.getByTestId("agent-checkpoint");
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText("After run");
    await expect(entries.first()).toContainText("Change the heading");
    await expect(entries.last()).toContainText("Before run");
    await expect(entries.last()).toContainText(/just now|minute/);
    await agent.root.screenshot({ path: test.info().outputPath("checkpoints.png") });
    await page.keyboard.press("Escape");
    await expect(list).toBeHidden();
    await agent.restoreCheckpoint("post_run", runId);
    await workspace.expectPreviewHeading(patchedHeading);
    expect(await api.readFile(appId, "src/App.tsx")).toContain(patchedHeading);
  });
});

test("the picker lists the scripted models; an unavailable model explains itself", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const appId = await openNewApp(page, api, workspace, "Agent models");

  await test.step("Auto and every configured model; unavailable ones greyed with the reason", async () => {
    await agent.modelPicker.click();
    const options = agent.root.getByTestId("agent-model-options");
    await expect(options).toBeVisible();
    await expect(agent.modelOption("auto")).toContainText("Uses happy-path");
    for (const scenario of ["happy-path", "patch-retry", "slow-stream", "text-only"]) {
      await expect(agent.modelOption(`compatible:${scenario}`)).toHaveAttribute(
        "aria-disabled",
        "false",
      );
    }
    const openai = agent.modelOption("openai:gpt-5.5");
    await expect(openai).toHaveAttribute("aria-disabled", "true");
    await expect(openai).toContainText("Set OPENAI_API_KEY");
    await agent.root.screenshot({ path: test.info().outputPath("model-picker.png") });
    // Playwright will not click an aria-disabled option by itself; a person can, and nothing happens.
    await openai.click({ force: true });
    await expect(agent.modelPicker).toHaveAttribute("data-model-id", "auto");
    // Keyboard: arrows move between available models, Enter picks.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(options).toBeHidden();
    await expect(agent.modelPicker).toHaveAttribute("data-model-id", "compatible:happy-path");
  });

  await test.step("a remembered model that is no longer configured is refused inline", async () => {
    await page.evaluate(
      (key) => window.localStorage.setItem(key, "openai:gpt-5.5"),
      `patchwork:agent:model:${appId}`,
    );
    await page.reload();
    await expect(agent.modelPicker).toHaveAttribute("data-model-id", "openai:gpt-5.5");
    await agent.send("Make the heading bigger");
    const error = agent.root.getByTestId("agent-model-error");
    await expect(error).toContainText("OPENAI_API_KEY");
    await agent.root.screenshot({ path: test.info().outputPath("model-error.png") });
    // The message was not lost, and no run was created.
    await expect(agent.input).toHaveValue("Make the heading bigger");
    expect(await listRuns(page.request, appId)).toHaveLength(0);
    await error.getByRole("button", { name: "Use Auto instead" }).click();
    await expect(error).toBeHidden();
    await expect(agent.modelPicker).toHaveAttribute("data-model-id", "auto");
  });
});

test("a failing patch shows a failed row with its reason, and the run recovers", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  await openNewApp(page, api, workspace, "Agent patch retry");
  await agent.chooseModel("compatible:patch-retry");
  await agent.send("Change the heading");
  expect(await agent.waitForLastRun()).toBe("completed");

  const rows = agent.toolRows();
  // Failed edit, re-read, edit, then the end-of-run check.
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(3)).toHaveAttribute("data-tool", "check_app");
  await expect(rows.nth(0)).toHaveAttribute("data-status", "failed");
  await expect(rows.nth(0)).toHaveAttribute("data-tool", "apply_patch");
  const reason = rows.nth(0).getByTestId("agent-tool-row-reason");
  await expect(reason).toBeVisible();
  await expect(reason).not.toBeEmpty();
  await expect(rows.nth(1)).toHaveAttribute("data-status", "completed");
  await expect(rows.nth(2)).toHaveAttribute("data-status", "completed");
  await expect(rows.nth(2)).toHaveAttribute("data-tool", "apply_patch");

  await test.step("the failed row expands to readable details, never raw JSON", async () => {
    await rows.nth(0).getByRole("button").click();
    const details = rows.nth(0).getByTestId("agent-tool-row-details");
    await expect(details).toBeVisible();
    await expect(details).toContainText("src/App.tsx");
    await expect(details).not.toContainText("{");
    await agent.root.screenshot({ path: test.info().outputPath("failed-patch.png") });
  });

  await workspace.expectPreviewHeading(patchedHeading);
});

test("a run paused at a rate limit counts down, goes on by itself, and can be cancelled", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  await openNewApp(page, api, workspace, "Agent rate limit");
  await agent.chooseModel("compatible:rate-limited-resume");
  await agent.send("Change the heading");
  const wait = agent.root.getByTestId("agent-rate-limit-wait");
  await expect(wait).toBeVisible();
  await expect(wait.getByTestId("agent-rate-limit-countdown")).toHaveText(/^0:0[1-3]$/);
  await expect(wait.getByTestId("agent-rate-limit-cancel")).toBeVisible();
  expect(await agent.waitForLastRun()).toBe("completed");
  await expect(wait).toHaveCount(0);
  await expect(
    agent.lastTurn.locator('[data-testid="agent-notice"][data-kind="resumed"]'),
  ).toBeVisible();
  await workspace.expectPreviewHeading(patchedHeading);

  await test.step("Cancel while it waits ends the run, and it never resumes", async () => {
    // The second run's conversation includes the first, so its first request is limited again.
    await agent.send("Change it once more");
    const second = agent.lastTurn.getByTestId("agent-rate-limit-wait");
    await expect(second).toBeVisible();
    await second.getByTestId("agent-rate-limit-cancel").click();
    expect(await agent.waitForLastRun(10_000)).toBe("cancelled");
    await expect(agent.lastTurn.getByTestId("agent-rate-limit-wait")).toHaveCount(0);
  });
});

test("composer: @ attaches files as context, Shift+Enter is a newline, /clear starts afresh", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  const appId = await openNewApp(page, api, workspace, "Agent composer");
  await agent.chooseModel("compatible:text-only");

  await test.step("@ offers the draft's files; Enter attaches one", async () => {
    await agent.input.click();
    await agent.input.pressSequentially("What does @App");
    const menu = agent.root.getByTestId("agent-mention-menu");
    await expect(menu.getByTestId("agent-mention-menu-item").first()).toHaveAttribute(
      "data-value",
      "src/App.tsx",
    );
    await agent.root.screenshot({ path: test.info().outputPath("mention-menu.png") });
    await agent.input.press("Enter");
    await expect(menu).toBeHidden();
    await expect(agent.input).toHaveValue("What does @src/App.tsx ");
    await expect(agent.root.getByTestId("agent-attachment")).toHaveText("src/App.tsx");
    await agent.root.screenshot({ path: test.info().outputPath("attachment.png") });
    await agent.input.press("Shift+Enter");
    await agent.input.pressSequentially("render?");
    await expect(agent.input).toHaveValue("What does @src/App.tsx \nrender?");
    await agent.input.press("Enter");
    expect(await agent.waitForLastRun()).toBe("completed");
    await expect(agent.lastTurn.getByTestId("agent-user-message")).toContainText("render?");
    await expect(agent.lastReply).toContainText("Patchwork edits your app");
    const [run] = await listRuns(page.request, appId);
    expect(run.input).toBe("What does @src/App.tsx \nrender?\n\nContext: @src/App.tsx");
  });

  await test.step("/clear starts a new conversation; the history stays one click away", async () => {
    await agent.send("/clear");
    await expect(agent.root.getByTestId("agent-note")).toContainText("new conversation");
    await expect(agent.turns).toHaveCount(0);
    const showEarlier = agent.root.getByTestId("agent-show-earlier");
    await expect(showEarlier).toHaveText("Show 1 earlier message");
    await agent.send("Hello again");
    expect(await agent.waitForLastRun()).toBe("completed");
    await expect(agent.turns).toHaveCount(1);
    await showEarlier.click();
    await expect(agent.turns).toHaveCount(2);
  });
});

test("the page never grows taller than the viewport as 200 tool rows stream in", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  await openNewApp(page, api, workspace, "Agent long run");
  await agent.chooseModel("compatible:agent-many-tools");
  const panelBefore = await agent.root.boundingBox();
  const viewport = page.viewportSize()!;
  await agent.send("Read every line of the app");

  const samples: { document: number; body: number; viewport: number; rows: number }[] = [];
  await expect(async () => {
    const heights = await pageHeights(page);
    const rows = await agent.toolRows().count();
    samples.push({ ...heights, rows });
    expect(rows).toBe(200);
  }).toPass({ timeout: 90_000, intervals: [100] });
  expect(await agent.waitForLastRun(90_000)).toBe("completed");
  samples.push({ ...(await pageHeights(page)), rows: await agent.toolRows().count() });

  expect(samples.some((sample) => sample.rows > 0 && sample.rows < 200)).toBe(true);
  for (const sample of samples) {
    expect(sample.document).toBeLessThanOrEqual(sample.viewport);
    expect(sample.body).toBeLessThanOrEqual(sample.viewport);
  }
  await page.screenshot({ path: test.info().outputPath("200-rows.png") });
  const panelAfter = await agent.root.boundingBox();
  expect(panelAfter?.height).toBe(panelBefore?.height);
  const composer = await agent.input.boundingBox();
  expect((composer?.y ?? 0) + (composer?.height ?? 0)).toBeLessThanOrEqual(viewport.height);

  await test.step("scrolled up, a button brings the latest back", async () => {
    await agent.conversation.hover();
    await page.mouse.wheel(0, -3_000);
    const toLatest = agent.root.getByTestId("agent-scroll-to-latest");
    await expect(toLatest).toBeVisible();
    await toLatest.click();
    await expect(toLatest).toBeHidden();
    await expect(agent.lastReply).toContainText("nothing needs to change");
  });
});

test("with no model configured, the panel says how to add one and the rest keeps working", async ({
  page,
  api,
  workspace,
  agent,
}) => {
  await page.route("**/api/models", (route) =>
    route.fulfill({
      json: {
        models: [
          {
            id: "auto",
            provider: "auto",
            label: "Auto",
            available: false,
            reason: "No model is configured.",
          },
          {
            id: "openai:gpt-5.5",
            provider: "openai",
            label: "GPT-5.5",
            available: false,
            reason: "Set OPENAI_API_KEY to use OpenAI models.",
          },
        ],
      },
    }),
  );
  await openNewApp(page, api, workspace, "Agent no model");
  const notice = agent.root.getByTestId("agent-no-model");
  await expect(notice).toBeVisible();
  for (const variable of [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GOOGLE_GENERATIVE_AI_API_KEY",
    "OPENAI_COMPATIBLE_BASE_URL",
    "OPENAI_COMPATIBLE_MODELS",
    "Ollama",
  ]) {
    await expect(notice).toContainText(variable);
  }
  await expect(agent.input).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath("no-model.png") });
  await workspace.openFile("src/main.tsx");
  await workspace.expectPreviewHeading(starterHeading);
});
