import { describe, expect, it } from "vitest";
import { starterHeading, starterTemplateFiles } from "./starter-template";

describe("starterTemplateFiles", () => {
  it("has the Vite-shaped files the preview bundler expects", () => {
    expect(Object.keys(starterTemplateFiles).sort()).toEqual([
      "index.html",
      "src/App.tsx",
      "src/index.css",
      "src/main.tsx",
    ]);
  });

  it("loads src/main.tsx as a module script into #root", () => {
    const html = starterTemplateFiles["index.html"];
    expect(html).toMatch(/<script type="module" src="\/src\/main\.tsx"><\/script>/);
    expect(html).toContain('<div id="root"></div>');
    const main = starterTemplateFiles["src/main.tsx"];
    expect(main).toContain('import "./index.css";');
    expect(main).toContain('document.getElementById("root")');
  });

  it("renders the starter heading as the page's only <h1>", () => {
    const app = starterTemplateFiles["src/App.tsx"];
    const headings = [...app.matchAll(/<h1\b[^>]*>\s*([^<]*?)\s*<\/h1>/g)].map((match) => match[1]);
    expect(headings).toEqual([starterHeading]);
  });

  it("uses Tailwind 4 through a single CSS import", () => {
    expect(starterTemplateFiles["src/index.css"]).toMatch(/^@import "tailwindcss";/);
  });
});
