import { starterHeading } from "@/lib/workspace/starter-template";
import { expect, test } from "./fixtures";

test("create, preview, edit, history, restore and publish an app", async ({
  page,
  dashboard,
  workspace,
  api,
}) => {
  const name = `Journey ${Date.now()}`;
  const editedHeading = "Hello from the editor";

  await test.step("create an app; the preview shows the starter", async () => {
    await dashboard.goto();
    const appId = await dashboard.createApp(name);
    await workspace.expectLoaded(name);
    await workspace.expectPreviewHeading(starterHeading);
    await expect(workspace.previewFrameElement).toHaveAttribute(
      "sandbox",
      "allow-scripts allow-forms allow-popups allow-modals",
    );
    // The shell is exactly the viewport; panes scroll inside it.
    const heights = await page.evaluate(() => ({
      document: document.documentElement.scrollHeight,
      viewport: window.innerHeight,
    }));
    expect(heights.document).toBeLessThanOrEqual(heights.viewport);
    await page.screenshot({ path: test.info().outputPath("workspace.png") });
    test.info().annotations.push({ type: "app", description: appId });
  });
  const appId = page.url().split("/").pop() as string;

  await test.step("edit src/App.tsx and save; the preview follows", async () => {
    const original = await api.readFile(appId, "src/App.tsx");
    const edited = original.replace(starterHeading, editedHeading);
    expect(edited).not.toBe(original);
    await workspace.openFile("src/App.tsx");
    await workspace.startEditing();
    await workspace.replaceEditorContent(edited);
    await workspace.saveWithShortcut();
    expect(await api.readFile(appId, "src/App.tsx")).toBe(edited);
    await workspace.expectPreviewHeading(editedHeading);
  });

  const history = await workspace.openHistory();

  await test.step("history lists both revisions and the edit's diff", async () => {
    await expect(history.revisions).toHaveCount(2);
    await expect(history.revision(0)).toHaveAttribute("data-source", "manual");
    await expect(history.revision(1)).toHaveAttribute("data-source", "template");
    await history.select(history.revision(0));
    await expect(history.diffFile("src/App.tsx")).toBeVisible();
    await expect(history.diff.getByTestId("diff-file")).toHaveCount(1);
    await expect(history.diffLines("addition").filter({ hasText: editedHeading })).toHaveCount(1);
    await expect(history.diffLines("deletion").filter({ hasText: starterHeading })).toHaveCount(1);
    await page.screenshot({ path: test.info().outputPath("history.png") });
  });

  await test.step("restore the first revision; the preview goes back", async () => {
    await history.select(history.revision(1));
    await expect(history.diffFile("src/App.tsx")).toBeVisible();
    await history.restoreSelected();
    await expect(history.revisions).toHaveCount(3);
    await expect(history.revision(0)).toHaveAttribute("data-source", "restore");
    await expect(history.revision(0).getByTestId("revision-current")).toBeVisible();
    await history.close();
    await workspace.expectPreviewHeading(starterHeading);
    expect(await api.readFile(appId, "src/App.tsx")).toContain(starterHeading);
  });

  await test.step("publish; the public URL serves the app", async () => {
    const publicPath = await workspace.publish();
    await page.screenshot({ path: test.info().outputPath("published.png") });
    expect(publicPath).toMatch(/^\/p\/[a-z0-9-]+$/);
    await page.goto(publicPath);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(starterHeading);
  });
});
