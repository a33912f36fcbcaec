import { expect, type Locator, type Page } from "@playwright/test";

export class SignInPage {
  constructor(private readonly page: Page) {}

  get error(): Locator {
    return this.page.getByTestId("signin-error");
  }

  async expectShown() {
    await expect(this.page).toHaveURL(/\/signin(\?|$)/);
    await expect(this.page.getByTestId("signin-form")).toBeVisible();
  }

  async signIn(token: string) {
    await this.page.getByTestId("signin-token").fill(token);
    await this.page.getByTestId("signin-submit").click();
  }
}
