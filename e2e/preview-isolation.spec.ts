import { starterHeading } from "@/lib/workspace/starter-template";
import { expect, test } from "./fixtures";

test.describe("the preview cannot reach the builder's data", () => {
  test("fetch with credentials and a text/plain POST from the preview both fail", async ({
    workspace,
    api,
    request,
  }) => {
    const app = await api.createApp(`Isolation ${Date.now()}`);
    await workspace.goto(app.id);
    await workspace.expectPreviewHeading(starterHeading);
    const appsBefore = await api.listApps();

    const frame = await workspace.previewFrame();
    // An opaque origin: not the builder's, so no cookies and no same-origin reads.
    expect(await frame.evaluate(() => window.origin)).toBe("null");

    const read = await frame.evaluate(async () => {
      try {
        const response = await fetch("/api/apps", { credentials: "include" });
        return { status: response.status, ok: response.ok, body: await response.text() };
      } catch (error) {
        return { rejected: String(error) };
      }
    });
    // From the opaque origin the response is never readable: Chromium rejects the fetch (CORS).
    expect(read).toEqual({ rejected: expect.stringMatching(/TypeError|Failed to fetch/) });

    const write = await frame.evaluate(async (name) => {
      try {
        const response = await fetch("/api/apps", {
          method: "POST",
          credentials: "include",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ name }),
        });
        return { status: response.status };
      } catch (error) {
        return { rejected: String(error) };
      }
    }, "Created by preview code");
    expect(write).toEqual({ rejected: expect.stringMatching(/TypeError|Failed to fetch/) });

    const beacon = await frame.evaluate(
      (name) =>
        navigator.sendBeacon(
          "/api/apps",
          new Blob([JSON.stringify({ name })], { type: "text/plain" }),
        ),
      "Created by a beacon",
    );
    expect(typeof beacon).toBe("boolean");

    // Give a beacon that slipped out time to land before checking nothing was created.
    await expect
      .poll(async () => (await api.listApps()).length, { intervals: [500, 1000], timeout: 3000 })
      .toBe(appsBefore.length);
    const names = (await api.listApps()).map((candidate) => candidate.name);
    expect(names).not.toContain("Created by preview code");
    expect(names).not.toContain("Created by a beacon");

    // Opened in its own tab the preview is still sandboxed, by its CSP.
    const document = await request.get(`/preview/${app.id}`);
    const policy = document.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/sandbox allow-scripts/);
    expect(policy).not.toContain("allow-same-origin");
  });
});
