import { expect, type Locator, type Page } from "@playwright/test";

/** The history drawer: revisions, checkpoints, the selected entry's diff, and Restore. */
export class HistoryDrawer {
  readonly root: Locator;

  constructor(private readonly page: Page) {
    this.root = page.getByTestId("history-drawer");
  }

  get revisions(): Locator {
    return this.root.getByTestId("revision-item");
  }

  /** Revisions are listed newest first; 0 is the draft head. */
  revision(indexFromNewest: number): Locator {
    return this.revisions.nth(indexFromNewest);
  }

  get diff(): Locator {
    return this.root.getByTestId("diff-view");
  }

  diffFile(path: string): Locator {
    return this.diff.locator(`[data-testid="diff-file"][data-path="${path}"]`);
  }

  diffLines(kind: "addition" | "deletion"): Locator {
    return this.diff.getByTestId(`diff-line-${kind}`);
  }

  async select(revision: Locator) {
    await revision.click();
    await expect(revision).toHaveAttribute("aria-current", "true");
  }

  async restoreSelected() {
    await this.root.getByTestId("restore-button").click();
    const dialog = this.page.getByTestId("restore-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("confirm-dialog-confirm").click();
    await expect(dialog).toBeHidden();
  }

  async close() {
    await this.root.getByTestId("history-close").click();
    await expect(this.root).toBeHidden();
  }
}
