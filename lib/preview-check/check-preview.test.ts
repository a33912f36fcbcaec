import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPreviewBuilder } from "@/lib/preview/build-preview";
import { starterHeading, starterTemplateFiles } from "@/lib/workspace/starter-template";
import { closeCheckBrowser } from "./check-browser";
import { checkPreviewInBrowser } from "./check-preview";

const builder = createPreviewBuilder({ builderRoot: path.resolve(import.meta.dirname, "../..") });
afterAll(async () => {
  await closeCheckBrowser();
  await builder.dispose();
});

const throwingApp = [
  'import { useEffect } from "react";',
  "",
  "export function App() {",
  "  useEffect(() => {",
  '    console.error("The chart failed to load");',
  "  }, []);",
  "  const plans: { name: string }[] | undefined = (globalThis as { plans?: [] }).plans;",
  "  return <ul>{plans!.map((plan) => <li key={plan.name}>{plan.name}</li>)}</ul>;",
  "}",
  "",
].join("\n");

describe("the browser check", () => {
  it("passes the starter, with the page's text and a screenshot", async () => {
    const build = await builder.build({
      key: "check-starter",
      files: new Map(Object.entries(starterTemplateFiles)),
    });
    const check = await checkPreviewInBrowser(build, {
      indexHtml: starterTemplateFiles["index.html"],
    });
    expect(check.status).toBe("passed");
    if (check.status === "skipped") throw new Error(check.reason);
    expect(check.problems).toEqual([]);
    expect(check.visibleText).toContain(starterHeading);
    // A JPEG: FF D8 FF.
    expect([...check.screenshot.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("fails an app that throws while rendering, at its file and line", async () => {
    const input = {
      key: "check-throwing",
      files: new Map(Object.entries({ ...starterTemplateFiles, "src/App.tsx": throwingApp })),
    };
    const build = await builder.build(input);
    expect(build.ok).toBe(true);
    const check = await checkPreviewInBrowser(build, {
      indexHtml: starterTemplateFiles["index.html"],
      sourceMap: () => builder.sourceMap(input, build),
    });
    expect(check.status).toBe("failed");
    if (check.status === "skipped") throw new Error(check.reason);
    const uncaught = check.problems.find((problem) => problem.kind === "error");
    expect(uncaught?.message).toMatch(/TypeError: .*map/);
    expect(uncaught?.location).toMatchObject({ file: "src/App.tsx", line: 8 });
  });

  it("says it was skipped, and why, when there is no Chromium", async () => {
    const saved = process.env.PATCHWORK_CHROMIUM_PATH;
    process.env.PATCHWORK_CHROMIUM_PATH = "/nonexistent/chromium";
    try {
      const build = await builder.build({
        key: "check-starter-2",
        files: new Map(Object.entries(starterTemplateFiles)),
      });
      const check = await checkPreviewInBrowser(build);
      expect(check).toMatchObject({ status: "skipped" });
      expect(check.status === "skipped" && check.reason).toContain("/nonexistent/chromium");
    } finally {
      if (saved === undefined) delete process.env.PATCHWORK_CHROMIUM_PATH;
      else process.env.PATCHWORK_CHROMIUM_PATH = saved;
    }
  });
});
