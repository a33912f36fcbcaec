import { expect, test } from "./fixtures";

// A valid 1×1 PNG, so the preview's <img> really decodes the uploaded bytes.
const onePixelPng = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test.describe("file operations in the tree", () => {
  test("new file, new folder, rename, delete with a confirm", async ({ page, workspace, api }) => {
    const app = await api.createApp(`Files ${Date.now()}`);
    await workspace.goto(app.id);
    await workspace.openFile("src/App.tsx");
    const item = (path: string) =>
      page.locator(`[data-testid="file-tree-item"][data-path="${path}"]`);

    await page.getByTestId("files-new-file").click();
    await expect(page.getByTestId("file-name-input")).toHaveValue("src/");
    await page.getByTestId("file-name-input").fill("src/notes.md");
    await page.getByTestId("file-name-submit").click();
    await expect(item("src/notes.md")).toBeVisible();
    await expect(page.getByTestId("open-file-path")).toHaveText("src/notes.md");

    await page.getByTestId("files-new-folder").click();
    await page.getByTestId("file-name-input").fill("src/empty");
    await page.getByTestId("file-name-submit").click();
    await expect(item("src/empty/.gitkeep")).toBeVisible();

    await page.getByTestId("files-rename").click();
    await page.getByTestId("file-name-input").fill("docs/notes.md");
    await page.getByTestId("file-name-submit").click();
    await expect(item("docs/notes.md")).toBeVisible();
    await expect(item("src/notes.md")).toHaveCount(0);

    await page.getByTestId("files-new-file").click();
    await page.getByTestId("file-name-input").fill("docs/ bad.md");
    await page.getByTestId("file-name-submit").click();
    await expect(page.getByTestId("file-name-dialog")).toContainText("starts with a space");
    await page.getByRole("button", { name: "Cancel" }).click();

    await workspace.openFile("docs/notes.md");
    await page.getByTestId("files-delete").click();
    const dialog = page.getByTestId("file-delete-dialog");
    await dialog.getByTestId("confirm-dialog-cancel").click();
    await expect(item("docs/notes.md")).toBeVisible();
    await page.getByTestId("files-delete").click();
    await expect(dialog).toContainText("docs/notes.md");
    await dialog.getByTestId("confirm-dialog-confirm").click();
    await expect(item("docs/notes.md")).toHaveCount(0);
  });

  test("an uploaded image shows in the preview", async ({ page, workspace, api, request }) => {
    const app = await api.createApp(`Upload ${Date.now()}`);
    await workspace.goto(app.id);
    await workspace.openFile("src/App.tsx");
    await page.getByTestId("files-upload-input").setInputFiles({
      name: "pixel.png",
      mimeType: "image/png",
      buffer: onePixelPng,
    });
    await expect(
      page.locator('[data-testid="file-tree-item"][data-path="src/pixel.png"]'),
    ).toBeVisible();
    const head = (await (await api.getApp(app.id)).json()).app.draft_revision_id as string;
    const saved = await request.put(`/api/apps/${app.id}/files/src/App.tsx`, {
      data: {
        base_revision_id: head,
        content:
          'import pixel from "./pixel.png";\nexport function App() {\n  return <img data-testid="uploaded" src={pixel} alt="pixel" />;\n}\n',
      },
    });
    expect(saved.status()).toBe(201);
    // The save came from outside this page; a reload shows the new head.
    await page.reload();
    const image = workspace.preview.getByTestId("uploaded");
    await expect(image).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBe(1);
  });

  test("the zip download holds the draft", async ({ page, workspace, api }) => {
    const app = await api.createApp(`Export ${Date.now()}`);
    await workspace.goto(app.id);
    const downloading = page.waitForEvent("download");
    await page.getByTestId("files-export-zip").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    const { unzipSync } = await import("fflate");
    expect(Object.keys(unzipSync(new Uint8Array(readFileSync(path))))).toContain("src/App.tsx");
  });
});
