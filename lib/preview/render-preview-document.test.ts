import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterHeading, starterTemplateFiles } from "@/lib/workspace/starter-template";
import { createPreviewBuilder } from "./build-preview";
import type { PreviewBuild } from "./preview-types";
import { renderPreviewDocument } from "./render-preview-document";

const builder = createPreviewBuilder({ builderRoot: path.resolve(import.meta.dirname, "../..") });
let starter: PreviewBuild;
beforeAll(async () => {
  starter = await builder.build({
    key: "render-starter",
    files: new Map(Object.entries(starterTemplateFiles)),
  });
});
afterAll(() => builder.dispose());

/** Parses a CSP header into directive name → source list. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

/** What a browser hashes: the exact text between the tags, UTF-8 encoded. */
function hashOf(content: string): string {
  return `'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`;
}

function inlineContents(html: string, tag: "script" | "style"): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, "g"))].map(
    (match) => match[1],
  );
}

const failedBuild: PreviewBuild = {
  ok: false,
  key: "failed",
  js: null,
  css: null,
  entry: "src/main.tsx",
  builtAt: new Date(0).toISOString(),
  durationMs: 12,
  diagnostics: [
    {
      file: "src/App.tsx",
      line: 3,
      column: 10,
      message: 'Unexpected closing "h3" tag <b>',
      severity: "error",
    },
    {
      file: null,
      line: null,
      column: null,
      message: "Something without a place",
      severity: "error",
    },
  ],
};

describe("renderPreviewDocument", () => {
  it("replaces index.html's module script with the inlined bundle and adds the compiled CSS", () => {
    const { html } = renderPreviewDocument({
      build: starter,
      indexHtml: starterTemplateFiles["index.html"],
    });
    expect(html).not.toContain('src="/src/main.tsx"');
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain("<title>Lumen — launch something people love</title>");
    const [script] = inlineContents(html, "script");
    expect(script).toContain(starterHeading);
    expect(inlineContents(html, "script")).toHaveLength(1);
    // The script stays after #root, where index.html had it, so it finds the element.
    expect(html.indexOf('<div id="root">')).toBeLessThan(html.indexOf('<script type="module">'));
    expect(inlineContents(html, "style")[0]).toBe(starter.css);
    expect(html.indexOf("<style>")).toBeLessThan(html.indexOf("</head>"));
  });

  it("sends a CSP whose hashes match exactly the document's inline script and style", () => {
    const { html, headers } = renderPreviewDocument({
      build: starter,
      indexHtml: starterTemplateFiles["index.html"],
    });
    const policy = directives(headers["Content-Security-Policy"]);
    expect(policy.get("script-src")).toEqual(inlineContents(html, "script").map(hashOf));
    expect(policy.get("style-src")).toEqual([
      ...inlineContents(html, "style").map(hashOf),
      "https:",
    ]);
    expect(headers["Content-Security-Policy"]).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it("locks the document down: sandboxed opaque origin, nothing by default, no framing by others", () => {
    const { headers } = renderPreviewDocument({ build: starter });
    const policy = directives(headers["Content-Security-Policy"]);
    expect(policy.get("default-src")).toEqual(["'none'"]);
    expect(policy.get("sandbox")).toEqual([
      "allow-scripts",
      "allow-forms",
      "allow-popups",
      "allow-modals",
    ]);
    expect(policy.get("sandbox")).not.toContain("allow-same-origin");
    expect(policy.get("frame-ancestors")).toEqual(["'self'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'none'"]);
    expect(policy.get("connect-src")).toEqual(["https:", "wss:"]);
    expect(policy.get("img-src")).toEqual(["data:", "blob:", "https:"]);
    expect(policy.get("font-src")).toEqual(["data:", "https:"]);
    expect(policy.get("media-src")).toEqual(["data:", "blob:", "https:"]);
    expect(headers).toMatchObject({
      "Content-Type": "text/html; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Cache-Control": "no-store",
    });
  });

  it("runs the runtime error reporter before the draft's bundle, by hash, knowing the bundle's line", () => {
    const { html, headers } = renderPreviewDocument({
      build: starter,
      indexHtml: starterTemplateFiles["index.html"],
      reportRuntimeErrors: true,
    });
    const scripts = inlineContents(html, "script");
    const reporter = scripts.find((script) => script.includes("patchwork:preview-error"));
    const bundle = scripts.find((script) => script.includes(starter.js as string));
    expect(reporter).toBeDefined();
    expect(reporter).not.toContain("\n");
    expect(html.indexOf(reporter as string)).toBeLessThan(html.indexOf(bundle as string));
    const scriptSources = directives(headers["Content-Security-Policy"]).get("script-src");
    expect(scriptSources).toEqual(
      expect.arrayContaining([hashOf(reporter as string), hashOf(bundle as string)]),
    );
    // The constant is the document line the bundle's first line is on.
    const bundleLine = Number(/const bundleLine = (\d+);/.exec(reporter as string)?.[1]);
    const bundleStart = html.indexOf(starter.js as string);
    expect(html.slice(0, bundleStart).split("\n").length).toBe(bundleLine);
    expect(html[bundleStart - 1]).toBe("\n");

    // A published document reports nothing.
    const published = renderPreviewDocument({
      build: starter,
      indexHtml: starterTemplateFiles["index.html"],
    });
    expect(published.html).not.toContain("patchwork:preview-error");
  });

  it("writes a whole document around #root when the app has no index.html", () => {
    const { html } = renderPreviewDocument({ build: starter, title: "My <app>" });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<title>My &lt;app&gt;</title>");
    expect(html.indexOf('<div id="root"></div>')).toBeLessThan(html.indexOf("<script"));
  });

  it("allows the app's own inline script and style by hash, and keeps external ones out", () => {
    const indexHtml = starterTemplateFiles["index.html"]
      .replace(
        "</head>",
        "<style>body { margin: 0 }</style>\n<script>document.documentElement.dataset.theme = 'dark'</script>\n</head>",
      )
      .replace("</body>", '<script src="https://cdn.example.com/x.js"></script>\n</body>');
    const { html, headers } = renderPreviewDocument({ build: starter, indexHtml });
    const policy = directives(headers["Content-Security-Policy"]);
    expect(policy.get("script-src")).toContain(
      hashOf("document.documentElement.dataset.theme = 'dark'"),
    );
    expect(policy.get("style-src")).toContain(hashOf("body { margin: 0 }"));
    expect(html).toContain("https://cdn.example.com/x.js");
    expect(policy.get("script-src")).not.toContain("https:");
  });

  it("keeps a </script> inside the bundle from closing the element early", () => {
    const build = { ...starter, js: 'console.log("</script><script>alert(1)</script>");' };
    const { html, headers } = renderPreviewDocument({ build });
    const scripts = inlineContents(html, "script");
    // The bundle starts on a line of its own (so its columns are the document's).
    expect(scripts).toEqual(['\nconsole.log("<\\/script><script>alert(1)<\\/script>");']);
    expect(directives(headers["Content-Security-Policy"]).get("script-src")).toEqual([
      hashOf(scripts[0]),
    ]);
  });

  it("shows an overlay listing every diagnostic as file:line:column — message instead of the app", () => {
    const { html, headers } = renderPreviewDocument({
      build: failedBuild,
      indexHtml: starterTemplateFiles["index.html"],
      title: "Lumen",
    });
    expect(html).toContain('data-testid="preview-error-overlay"');
    expect(html).not.toContain('id="root"');
    expect(html).not.toContain("<b>");
    const text = html
      .replace(/<[^>]+>/g, "")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
    expect(text).toContain('src/App.tsx:3:10 — Unexpected closing "h3" tag <b>');
    expect(text).toContain("(build) — Something without a place");
    expect(text).toContain("2 errors stop the build.");
    expect(html).toContain("<title>Build failed · Lumen</title>");
    const policy = directives(headers["Content-Security-Policy"]);
    expect(policy.get("script-src")).toEqual(["'none'"]);
    expect(policy.get("style-src")).toEqual([
      ...inlineContents(html, "style").map(hashOf),
      "https:",
    ]);
  });
});
