import { test as base } from "@playwright/test";
import { DashboardPage } from "./pages/dashboard-page";
import { SignInPage } from "./pages/sign-in-page";
import { WorkspacePage } from "./pages/workspace-page";
import { PatchworkApi } from "./support/api";

/** Page objects and an API client for every spec. */
export const test = base.extend<{
  dashboard: DashboardPage;
  workspace: WorkspacePage;
  signInPage: SignInPage;
  api: PatchworkApi;
}>({
  dashboard: async ({ page }, use) => use(new DashboardPage(page)),
  workspace: async ({ page }, use) => use(new WorkspacePage(page)),
  signInPage: async ({ page }, use) => use(new SignInPage(page)),
  api: async ({ request }, use) => use(new PatchworkApi(request)),
});

export { expect } from "@playwright/test";
