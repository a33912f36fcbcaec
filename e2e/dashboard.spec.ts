import { expect, test } from "./fixtures";

test.describe("dashboard", () => {
  test("renames an app inline, and Escape cancels", async ({ page, dashboard, api }) => {
    const app = await api.createApp(`Rename me ${Date.now()}`);
    const renamed = `Renamed ${Date.now()}`;
    await dashboard.goto();
    await expect(dashboard.row(app.name)).toBeVisible();

    await dashboard.row(app.name).hover();
    await dashboard.row(app.name).getByTestId("app-row-rename").click();
    await page.getByTestId("rename-input").fill("Not this name");
    await page.getByTestId("rename-input").press("Escape");
    await expect(dashboard.row(app.name)).toBeVisible();

    await dashboard.rename(app.name, renamed);
    await expect(dashboard.row(renamed)).toBeVisible();
    await expect(dashboard.row(app.name)).toHaveCount(0);
    expect((await (await api.getApp(app.id)).json()).app.name).toBe(renamed);

    await page.reload();
    await expect(dashboard.row(renamed)).toBeVisible();
  });

  test("deletes an app only after confirming", async ({ page, dashboard, api }) => {
    const app = await api.createApp(`Delete me ${Date.now()}`);
    await dashboard.goto();

    const cancelled = await dashboard.openDeleteDialog(app.name);
    await cancelled.getByTestId("confirm-dialog-cancel").click();
    await expect(cancelled).toBeHidden();
    await expect(dashboard.row(app.name)).toBeVisible();
    expect((await api.getApp(app.id)).status()).toBe(200);

    const dialog = await dashboard.openDeleteDialog(app.name);
    await expect(dialog).toContainText(app.name);
    await dialog.getByTestId("confirm-dialog-confirm").click();
    await expect(dialog).toBeHidden();
    await expect(dashboard.row(app.name)).toHaveCount(0);
    expect((await api.getApp(app.id)).status()).toBe(404);

    await page.reload();
    await expect(page.getByTestId("app-count")).toBeVisible();
    await expect(dashboard.row(app.name)).toHaveCount(0);
  });

  test("shows which apps are published and opens the workspace", async ({
    page,
    dashboard,
    api,
  }) => {
    const app = await api.createApp(`Published ${Date.now()}`);
    await api.publish(app.id);
    await dashboard.goto();
    await expect(dashboard.row(app.name).getByTestId("app-row-published")).toBeVisible();

    await dashboard.row(app.name).getByTestId("app-row-name").click();
    await expect(page).toHaveURL(new RegExp(`/apps/${app.id}$`));
    await expect(page.getByTestId("app-name")).toHaveText(app.name);
    await expect(page.getByTestId("public-url")).toHaveAttribute("href", `/p/${app.slug}`);
  });
});
