import { expect, test } from "./fixtures";
import { authBaseURL } from "./support/servers";

const token = process.env.PATCHWORK_E2E_AUTH_TOKEN as string;

// Against the server started with PATCHWORK_AUTH_TOKEN (see playwright.config.ts).
test.use({ baseURL: authBaseURL });

test.describe("sign-in with an auth token", () => {
  test("a wrong token is refused with a message; the right one returns to the page asked for", async ({
    page,
    signInPage,
  }) => {
    await page.goto("/apps/00000000-0000-4000-8000-000000000000");
    await signInPage.expectShown();
    expect(new URL(page.url()).searchParams.get("next")).toBe(
      "/apps/00000000-0000-4000-8000-000000000000",
    );

    await signInPage.signIn("not-the-token-at-all");
    await expect(signInPage.error).toHaveText("That token is not right.");
    await expect(page).toHaveURL(/\/signin/);

    await signInPage.signIn(token);
    await expect(page).toHaveURL(/\/apps\/00000000-0000-4000-8000-000000000000$/);
    await expect(page.getByTestId("workspace-error")).toContainText("App not found");
  });

  test("after signing in, an off-site next goes home instead, to an empty dashboard", async ({
    page,
    signInPage,
    dashboard,
  }) => {
    await page.goto(`/signin?next=${encodeURIComponent("//evil.example/steal")}`);
    await signInPage.signIn(token);
    await expect(page).toHaveURL(`${authBaseURL}/`);
    await expect(dashboard.emptyState).toBeVisible();
  });
});
