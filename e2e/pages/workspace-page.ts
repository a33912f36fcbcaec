import { expect, type Frame, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { HistoryDrawer } from "./history-drawer";

/** The workspace of one app: file tree, code, preview, history and publish. */
export class WorkspacePage {
  constructor(private readonly page: Page) {}

  async goto(appId: string) {
    await this.page.goto(`/apps/${appId}`);
    await expect(this.page.getByTestId("workspace")).toBeVisible();
  }

  async expectLoaded(appName: string) {
    await expect(this.page.getByTestId("app-name")).toHaveText(appName);
    await expect(this.page.getByTestId("file-tree")).toBeVisible();
  }

  /** The iframe on screen; a reload or new revision swaps it once the next one has loaded. */
  get previewFrameElement(): Locator {
    return this.page.getByTestId("preview-frame");
  }

  get preview(): FrameLocator {
    return this.page.frameLocator('[data-testid="preview-frame"]');
  }

  async expectPreviewHeading(text: string) {
    await expect(this.preview.getByRole("heading", { level: 1 })).toHaveText(text, {
      timeout: 30_000,
    });
  }

  /** The preview's document, to run code inside it as the app's own code would. */
  async previewFrame(): Promise<Frame> {
    const handle = await this.previewFrameElement.elementHandle();
    const frame = await handle?.contentFrame();
    if (!frame) throw new Error("The preview iframe has no document");
    return frame;
  }

  async openFile(path: string) {
    await this.page.locator(`[data-testid="file-tree-item"][data-path="${path}"]`).click();
    await expect(this.page.getByTestId("open-file-path")).toHaveText(path);
    await expect(this.page.getByTestId("code-viewer")).toHaveAttribute("data-path", path);
  }

  async startEditing() {
    await this.page.getByTestId("edit-file").click();
    await expect(this.editorContent).toBeVisible();
  }

  get editorContent(): Locator {
    return this.page.locator('[data-testid="code-editor"] .cm-content');
  }

  /** Replaces the whole file in CodeMirror as typed text (no auto-indent or bracket closing). */
  async replaceEditorContent(content: string) {
    await this.editorContent.click();
    await this.page.keyboard.press("ControlOrMeta+a");
    await this.page.keyboard.insertText(content);
    await expect(this.page.getByTestId("save-status")).toHaveText(/Unsaved changes/);
  }

  /** Saves with the keyboard shortcut, as a person would. */
  async saveWithShortcut() {
    await this.page.keyboard.press("ControlOrMeta+s");
    await expect(this.page.getByTestId("save-status")).toHaveText(/Saved as a new revision/);
  }

  async openHistory(): Promise<HistoryDrawer> {
    await this.page.getByTestId("history-button").click();
    const drawer = new HistoryDrawer(this.page);
    await expect(drawer.root).toBeVisible();
    return drawer;
  }

  /** Publishes the draft head; resolves with the public path shown in the header. */
  async publish(): Promise<string> {
    await this.page.getByTestId("publish-button").click();
    const link = this.page.getByTestId("public-url");
    await expect(link).toBeVisible();
    await expect(this.page.getByTestId("publish-button")).toHaveText(/Published/);
    return (await link.getAttribute("href")) as string;
  }
}
