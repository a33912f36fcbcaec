import { expect, type Locator, type Page } from "@playwright/test";

/** The home page: the list of apps, the create form, rename and delete. */
export class DashboardPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/");
    await expect(this.page.getByTestId("create-app-name")).toBeVisible();
  }

  get emptyState(): Locator {
    return this.page.getByTestId("empty-apps");
  }

  row(name: string): Locator {
    return this.page.getByTestId("app-row").filter({
      has: this.page.getByTestId("app-row-name").getByText(name, { exact: true }),
    });
  }

  /** Creates an app through the form; resolves with its id once the workspace has opened. */
  async createApp(name: string): Promise<string> {
    await this.page.getByTestId("create-app-name").fill(name);
    await this.page.getByTestId("create-app-submit").click();
    await this.page.waitForURL(/\/apps\/[0-9a-f-]{36}$/);
    return this.page.url().split("/").pop() as string;
  }

  async rename(currentName: string, nextName: string) {
    const row = this.row(currentName);
    await row.hover();
    await row.getByTestId("app-row-rename").click();
    const input = this.page.getByTestId("rename-input");
    await expect(input).toBeFocused();
    await input.fill(nextName);
    await input.press("Enter");
  }

  async openDeleteDialog(name: string): Promise<Locator> {
    const row = this.row(name);
    await row.hover();
    await row.getByTestId("app-row-delete").click();
    // Every row has its own (closed) dialog; the open one is the visible one.
    const dialog = this.page.getByTestId("delete-app-dialog").filter({ visible: true });
    await expect(dialog).toBeVisible();
    return dialog;
  }
}
