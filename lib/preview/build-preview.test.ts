import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { starterHeading, starterTemplateFiles } from "@/lib/workspace/starter-template";
import { allowedPreviewPackages } from "./allowed-packages";
import { createPreviewBuilder } from "./build-preview";

const builderRoot = path.resolve(import.meta.dirname, "../..");
const builder = createPreviewBuilder({ builderRoot });
afterAll(() => builder.dispose());

let revision = 0;
/** A unique revision key per build, so the shared builder's cache never answers by accident. */
function nextKey(label: string): string {
  revision += 1;
  return `${label}-${revision}`;
}

function starterWith(changes: Record<string, string | null> = {}): Map<string, string> {
  const files = new Map(Object.entries(starterTemplateFiles));
  for (const [file, content] of Object.entries(changes)) {
    if (content === null) files.delete(file);
    else files.set(file, content);
  }
  return files;
}

const app = starterTemplateFiles["src/App.tsx"];

describe("buildPreview", () => {
  it("builds the starter with no diagnostics, its heading in the JS and its utilities compiled", async () => {
    const build = await builder.build({ key: nextKey("starter"), files: starterWith() });
    expect(build.diagnostics).toEqual([]);
    expect(build.ok).toBe(true);
    expect(build.entry).toBe("src/main.tsx");
    expect(build.js).toContain(starterHeading);
    expect(build.js).toContain("createRoot");
    // Real rules for classes the starter uses, produced by Tailwind's compiler, not echoed class names.
    expect(build.css).toMatch(/\.bg-slate-950\s*\{\s*background-color:\s*var\(--color-slate-950\)/);
    expect(build.css).toMatch(/\.max-w-5xl\s*\{\s*max-width:\s*var\(--container-5xl\)/);
    expect(build.css).toMatch(
      /@media \(width >= 40rem\) \{[^@]*\.sm\\:grid-cols-3 \{\s*grid-template-columns: repeat\(3, minmax\(0, 1fr\)\)/,
    );
    expect(build.css).toContain('--font-sans: "Inter"');
    // Classes nobody wrote are not generated.
    expect(build.css).not.toContain(".bg-red-500");
    expect(Date.parse(build.builtAt)).not.toBeNaN();
    expect(build.durationMs).toBeGreaterThan(0);
  });

  it("reports a syntax error with the file, line and column", async () => {
    const broken = app.replace(
      '<h2 className="mt-4 font-semibold text-white">{title}</h2>',
      "<h2>{title}</h3>",
    );
    expect(broken).not.toBe(app);
    const line = broken.split("\n").findIndex((text) => text.includes("</h3>")) + 1;
    const build = await builder.build({
      key: nextKey("syntax"),
      files: starterWith({ "src/App.tsx": broken }),
    });
    expect(build.ok).toBe(false);
    expect(build.js).toBeNull();
    expect(build.diagnostics[0]).toMatchObject({ file: "src/App.tsx", line, severity: "error" });
    expect(build.diagnostics[0].column).toBe(broken.split("\n")[line - 1].indexOf("</h3>") + 3);
    expect(build.diagnostics[0].message).toMatch(/"h3".*"h2"/);
  });

  it("refuses an import of a package the app has not declared, saying how to add it, at the import", async () => {
    const build = await builder.build({
      key: nextKey("forbidden"),
      files: starterWith({
        "src/App.tsx": `import _ from "lodash";\nexport const chunk = _.chunk;\n${app}`,
      }),
    });
    expect(build.ok).toBe(false);
    const [diagnostic] = build.diagnostics;
    expect(diagnostic).toMatchObject({
      file: "src/App.tsx",
      line: 1,
      column: 15,
      severity: "error",
    });
    expect(diagnostic.message).toContain('"lodash"');
    expect(diagnostic.message).toContain('Add it to "dependencies" in package.json');
    for (const name of allowedPreviewPackages) expect(diagnostic.message).toContain(name);
  });

  it("refuses packages installed in the builder but not allowed, and node built-ins", async () => {
    const build = await builder.build({
      key: nextKey("installed"),
      files: starterWith({
        "src/extra.ts": 'import "zod";\nimport "node:fs";\n',
        "src/main.tsx": `import "./extra";\n${starterTemplateFiles["src/main.tsx"]}`,
      }),
    });
    expect(build.diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.line])).toEqual([
      ["src/extra.ts", 1],
      ["src/extra.ts", 2],
    ]);
  });

  it("reports a missing relative import at the importing line", async () => {
    const build = await builder.build({
      key: nextKey("missing"),
      files: starterWith({
        "src/App.tsx": `import { Card } from "./Card";\nexport const card = Card;\n${app}`,
      }),
    });
    expect(build.diagnostics).toEqual([
      {
        file: "src/App.tsx",
        line: 1,
        column: 22,
        message: 'Cannot find "./Card" from src/App.tsx.',
        severity: "error",
      },
    ]);
  });

  it("bundles CSS imported from components, with @import, url() assets and @apply, in import order", async () => {
    const files = starterWith({
      "src/App.tsx": `import "./card.css";\n${app}`,
      "src/card.css":
        '@import "./tokens.css";\n.card { @apply rounded-xl p-4; background: url("./dot.svg"); }\n',
      "src/tokens.css": ".tokens-marker { color: rebeccapurple; }\n",
    });
    files.set("src/dot.svg", '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const build = await builder.build({ key: nextKey("css"), files });
    expect(build.diagnostics).toEqual([]);
    const css = build.css ?? "";
    expect(css).toMatch(/\.card\s*\{[^}]*border-radius:\s*var\(--radius-xl\)/);
    expect(css).toMatch(/\.card\s*\{[^}]*padding:\s*calc\(var\(--spacing\) \* 4\)/);
    expect(css).toMatch(/url\(["']?data:image\/svg\+xml[,;]/);
    // main.tsx imports ./App (which imports card.css, which imports tokens.css) before ./index.css.
    expect(css.indexOf(".tokens-marker")).toBeLessThan(css.indexOf(".card"));
    expect(css.indexOf(".card")).toBeLessThan(css.indexOf("scroll-behavior"));
  });

  it("places Tailwind errors in the stylesheet that caused them", async () => {
    const css = `${starterTemplateFiles["src/index.css"]}\n.broken {\n  @apply not-a-utility;\n}\n`;
    const build = await builder.build({
      key: nextKey("tailwind"),
      files: starterWith({ "src/index.css": css }),
    });
    expect(build.ok).toBe(false);
    expect(build.diagnostics[0]).toMatchObject({
      file: "src/index.css",
      line: css.split("\n").indexOf("  @apply not-a-utility;") + 1,
    });
    expect(build.diagnostics[0].message).toContain("not-a-utility");
  });

  it("refuses Tailwind plugins and stylesheets that would read the builder's disk", async () => {
    for (const directive of [
      '@plugin "@tailwindcss/typography";',
      '@reference "../../package.json";',
      '@import "tailwindcss/nope.css";',
      '@source "../../../etc";',
    ]) {
      const build = await builder.build({
        key: nextKey("tailwind-disk"),
        files: starterWith({ "src/index.css": `@import "tailwindcss";\n${directive}\n` }),
      });
      expect(build.ok, directive).toBe(false);
      expect(build.diagnostics[0].file).toBe("src/index.css");
      // Where Patchwork is installed is nobody's business: no absolute server path in any message.
      for (const diagnostic of build.diagnostics) {
        expect(diagnostic.message, directive).not.toContain(process.cwd());
        expect(diagnostic.message, directive).not.toMatch(/(^|[\s('"`])\/[^\s]*node_modules/);
      }
    }
  });

  it("reports an entry index.html names but the app lacks, at its line in index.html", async () => {
    const html = starterTemplateFiles["index.html"].replace("/src/main.tsx", "/src/start.tsx");
    const build = await builder.build({
      key: nextKey("entry"),
      files: starterWith({ "index.html": html }),
    });
    expect(build.ok).toBe(false);
    expect(build.entry).toBe("src/start.tsx");
    expect(build.diagnostics[0]).toMatchObject({
      file: "index.html",
      line: html.split("\n").findIndex((text) => text.includes("/src/start.tsx")) + 1,
    });
  });

  it("reports an unknown lucide icon at the app's import", async () => {
    const broken = app
      .replace("Sparkles, Zap }", "Sparkles, NoSuchIcon, Zap }")
      .replace("icon: Zap,", "icon: NoSuchIcon,");
    const build = await builder.build({
      key: nextKey("icon"),
      files: starterWith({ "src/App.tsx": broken }),
    });
    expect(build.diagnostics[0]).toMatchObject({ file: "src/App.tsx", line: 2, severity: "error" });
    expect(build.diagnostics[0].message).toBe(
      'No matching export in "lucide-react" for import "NoSuchIcon"',
    );
  });

  it("falls back to lucide-react's full entry for a namespace import", async () => {
    const files = starterWith({
      "src/Icons.tsx": 'import * as Icons from "lucide-react";\nexport const Star = Icons.Star;\n',
      "src/main.tsx": `import { Star } from "./Icons";\nconsole.log(Star);\n${starterTemplateFiles["src/main.tsx"]}`,
    });
    const build = await builder.build({ key: nextKey("icons"), files });
    expect(build.diagnostics).toEqual([]);
    expect(build.js).toContain("star");
  });

  it("returns the cached build for a key, and shares one build between concurrent requests", async () => {
    const key = nextKey("cache");
    const before = builder.stats();
    const [first, second] = await Promise.all([
      builder.build({ key, files: starterWith() }),
      builder.build({ key, files: starterWith() }),
    ]);
    const third = await builder.build({ key, files: starterWith() });
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(builder.stats().bundles - before.bundles).toBe(1);
    expect(builder.stats().cacheHits - before.cacheHits).toBe(1);
  });

  it("rebuilds an app's next revision incrementally and reflects the one-line change", async () => {
    const appId = "incremental-app";
    const before = builder.stats();
    const first = await builder.build({ key: nextKey("incremental"), files: starterWith(), appId });
    const changed = app.replace("Launch something people love", "Launch something people adore");
    const second = await builder.build({
      key: nextKey("incremental"),
      files: starterWith({ "src/App.tsx": changed }),
      appId,
    });
    const after = builder.stats();
    expect(after.contextsCreated - before.contextsCreated).toBe(1);
    expect(after.incrementalRebuilds - before.incrementalRebuilds).toBe(1);
    expect(first.js).toContain("Launch something people love");
    expect(second.ok).toBe(true);
    expect(second.js).toContain("Launch something people adore");
    expect(second.js).not.toContain("Launch something people love");
  });

  it("follows previousKey to the context that built the parent revision when no appId is given", async () => {
    const before = builder.stats();
    const parent = nextKey("lineage");
    await builder.build({ key: parent, files: starterWith() });
    const child = await builder.build({
      key: nextKey("lineage"),
      previousKey: parent,
      files: starterWith({ "src/App.tsx": app.replace("Lumen", "Lantern") }),
    });
    expect(child.js).toContain("Lantern");
    expect(builder.stats().contextsCreated - before.contextsCreated).toBe(1);
    expect(builder.stats().incrementalRebuilds - before.incrementalRebuilds).toBe(1);
  });

  it("finishes a build whose context is evicted while it runs", async () => {
    const small = createPreviewBuilder({ builderRoot, maxContexts: 1 });
    try {
      const builds = await Promise.all([
        small.build({ key: "evicted-1", files: starterWith(), appId: "evicted" }),
        small.build({ key: "evicting-1", files: starterWith(), appId: "evicting" }),
      ]);
      expect(builds.map((build) => build.ok)).toEqual([true, true]);
      expect(small.stats()).toMatchObject({ contextsCreated: 2, liveContexts: 1 });
    } finally {
      await small.dispose();
    }
  });

  it("keeps a bounded number of esbuild contexts, disposing the least recently used", async () => {
    const small = createPreviewBuilder({ builderRoot, maxContexts: 2, maxCachedBuilds: 2 });
    try {
      for (const appId of ["one", "two", "three"]) {
        await small.build({ key: `${appId}-1`, files: starterWith(), appId });
      }
      expect(small.stats()).toMatchObject({ contextsCreated: 3, liveContexts: 2 });
      // The first app's context was disposed, so its next revision starts a new one.
      await small.build({ key: "one-2", files: starterWith(), appId: "one" });
      expect(small.stats()).toMatchObject({ contextsCreated: 4, incrementalRebuilds: 0 });
    } finally {
      await small.dispose();
    }
  });
});
