/**
 * Preview bundling benchmark: first build and incremental rebuild for the starter and a synthetic
 * 200-module app, against a plain esbuild build() of the same files. Run: tsx bench/preview.bench.ts
 */
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { starterTemplateFiles } from "../lib/workspace/starter-template";

const builderRoot = path.resolve(import.meta.dirname, "..");
const firstBuildRuns = 7;
const rebuildRuns = 21;
// A person saves or an agent patches seconds apart; the builder uses idle time to prepare the next
// Tailwind compiler, so back-to-back rebuilds would measure a workload that does not happen.
const idleBetweenRebuildsMs = 50;
const rebuildTargetMs = 100;

interface Scenario {
  name: string;
  files: Map<string, string>;
  /** The file whose one line each rebuild changes, and the line's text with a counter. */
  changedFile: string;
  changeLine: (run: number) => string;
  changedLinePattern: RegExp;
}

interface Row {
  app: string;
  modules: number;
  firstBuildMs: number;
  rebuildMs: number;
  plainBuildMs: number;
  jsKilobytes: number;
  cssKilobytes: number;
}

/** Measures preview build times and prints them as a table. */
export async function runPreviewBench(): Promise<void> {
  allowServerOnlyModules();
  const { createPreviewBuilder } = await import("../lib/preview/build-preview");
  const { previewScriptOptions } = await import("../lib/preview/app-bundler");
  const { VirtualFiles } = await import("../lib/preview/virtual-files");
  const { planPreviewEntry } = await import("../lib/preview/preview-entry");
  const esbuild = await import("esbuild");

  const scenarios = [starterScenario(), syntheticScenario(200)];
  const rows: Row[] = [];
  let coldFirstBuildMs = 0;
  for (const scenario of scenarios) {
    const firstBuilds: number[] = [];
    let lastBuild = null as Awaited<
      ReturnType<ReturnType<typeof createPreviewBuilder>["build"]>
    > | null;
    for (let run = 0; run < firstBuildRuns; run += 1) {
      const builder = createPreviewBuilder({ builderRoot });
      const startedAt = performance.now();
      lastBuild = await builder.build({
        key: `${scenario.name}-first-${run}`,
        files: scenario.files,
        appId: "bench",
      });
      firstBuilds.push(performance.now() - startedAt);
      if (!lastBuild.ok)
        throw new Error(`${scenario.name} failed: ${JSON.stringify(lastBuild.diagnostics)}`);
      if (rows.length === 0 && run === 0) coldFirstBuildMs = firstBuilds[0];
      await builder.dispose();
    }

    const builder = createPreviewBuilder({ builderRoot });
    await builder.build({ key: `${scenario.name}-base`, files: scenario.files, appId: "bench" });
    const rebuilds: number[] = [];
    for (let run = 0; run < rebuildRuns; run += 1) {
      await sleep(idleBetweenRebuildsMs);
      const files = withChangedLine(scenario, run);
      const startedAt = performance.now();
      const build = await builder.build({
        key: `${scenario.name}-rebuild-${run}`,
        files,
        appId: "bench",
      });
      rebuilds.push(performance.now() - startedAt);
      if (!build.ok || !build.js?.includes(`edit ${run}`))
        throw new Error(`${scenario.name}: rebuild ${run} missed the change`);
    }
    const stats = builder.stats();
    if (stats.incrementalRebuilds !== rebuildRuns)
      throw new Error(`expected incremental rebuilds, got ${JSON.stringify(stats)}`);
    await builder.dispose();

    const plainBuilds: number[] = [];
    for (let run = 0; run < rebuildRuns; run += 1) {
      const files = new VirtualFiles(withChangedLine(scenario, run));
      const entrySource = planPreviewEntry(files).entrySource;
      const startedAt = performance.now();
      await esbuild.build(previewScriptOptions(builderRoot, () => ({ files, entrySource })));
      plainBuilds.push(performance.now() - startedAt);
    }

    rows.push({
      app: scenario.name,
      modules: [...scenario.files.keys()].filter((file) => /\.(tsx?|jsx?)$/.test(file)).length,
      firstBuildMs: median(firstBuilds),
      rebuildMs: median(rebuilds),
      plainBuildMs: median(plainBuilds),
      jsKilobytes: (lastBuild?.js?.length ?? 0) / 1024,
      cssKilobytes: (lastBuild?.css?.length ?? 0) / 1024,
    });
  }
  printTable(rows, coldFirstBuildMs);
}

function printTable(rows: Row[], coldFirstBuildMs: number): void {
  const header = [
    "app",
    "app modules",
    `first build ms (median of ${firstBuildRuns})`,
    `rebuild ms (median of ${rebuildRuns})`,
    "plain esbuild build() ms (JS only)",
    "rebuild / plain build",
    "JS KB",
    "CSS KB",
    `rebuild ≤ ${rebuildTargetMs} ms`,
  ];
  const lines = rows.map((row) => [
    row.app,
    String(row.modules),
    row.firstBuildMs.toFixed(1),
    row.rebuildMs.toFixed(1),
    row.plainBuildMs.toFixed(1),
    (row.rebuildMs / row.plainBuildMs).toFixed(2),
    row.jsKilobytes.toFixed(0),
    row.cssKilobytes.toFixed(0),
    row.rebuildMs <= rebuildTargetMs ? "yes" : "NO",
  ]);
  console.log(
    "\nPreview bundling (rebuild = one-line change, full pipeline: esbuild rebuild() + CSS + Tailwind)",
  );
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const line of lines) console.log(`| ${line.join(" | ")} |`);
  console.log(
    `\nCold first build in a fresh process (esbuild service start, lucide index read, first Tailwind compile): ${coldFirstBuildMs.toFixed(1)} ms. ` +
      `Rebuilds are ${idleBetweenRebuildsMs} ms apart.`,
  );
}

function starterScenario(): Scenario {
  return {
    name: "starter",
    files: new Map(Object.entries(starterTemplateFiles)),
    changedFile: "src/App.tsx",
    changedLinePattern: /Launch something people love/,
    changeLine: (run) => `Launch something people love, edit ${run}`,
  };
}

/**
 * An app of `count` script modules: main.tsx, App.tsx and components in a tree (each imports two
 * children), with Tailwind classes, state, clsx and lucide icons like a generated app has.
 */
function syntheticScenario(count: number): Scenario {
  const components = count - 2;
  const files = new Map<string, string>([
    ["index.html", starterTemplateFiles["index.html"]],
    ["src/index.css", starterTemplateFiles["src/index.css"]],
    ["src/main.tsx", starterTemplateFiles["src/main.tsx"]],
    [
      "src/App.tsx",
      'import { Module0 } from "./modules/module-0";\n\nexport function App() {\n  return <Module0 />;\n}\n',
    ],
  ]);
  const icons = ["Rocket", "Star", "Heart", "Zap", "Leaf", "Sun", "Moon", "Cloud"];
  const colors = ["slate", "indigo", "emerald", "rose", "amber", "sky", "violet", "teal"];
  for (let index = 1; index < components; index += 1) {
    const children = [2 * index + 1, 2 * index + 2].filter((child) => child < components);
    const icon = icons[index % icons.length];
    const color = colors[index % colors.length];
    const imports = children
      .map((child) => `import { Module${child} } from "./module-${child}";`)
      .join("\n");
    files.set(
      `src/modules/module-${index}.tsx`,
      `import { useState } from "react";
import clsx from "clsx";
import { ${icon} } from "lucide-react";
${imports}

const items = ${JSON.stringify(Array.from({ length: 4 }, (_, item) => `Item ${index}.${item}`))};

export function Module${index}() {
  const [open, setOpen] = useState(${index % 2 === 0});
  return (
    <section className="rounded-xl border border-${color}-200 bg-${color}-50 p-${(index % 6) + 2} shadow-sm">
      <header className="flex items-center justify-between gap-${(index % 4) + 1}">
        <h3 className="text-${color}-900 font-semibold">Section ${index}: edit -1</h3>
        <button type="button" onClick={() => setOpen(!open)} className={clsx("rounded-md px-2 py-1 text-sm", open ? "bg-${color}-600 text-white" : "bg-white text-${color}-700")}>
          <${icon} className="size-4" />
        </button>
      </header>
      {open && (
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {items.map((item) => (
            <li key={item} className="rounded bg-white/70 px-3 py-2 text-${color}-800">{item}</li>
          ))}
        </ul>
      )}
      <div className="mt-4 space-y-4">${children.map((child) => `<Module${child} />`).join("")}</div>
    </section>
  );
}
`,
    );
  }
  files.set(
    "src/modules/module-0.tsx",
    'import { Module1 } from "./module-1";\nimport { Module2 } from "./module-2";\n\nexport function Module0() {\n  return <main className="mx-auto max-w-5xl space-y-6 p-8"><Module1 /><Module2 /></main>;\n}\n',
  );
  const changed = components - 1;
  return {
    name: `synthetic ${count}-module`,
    files,
    changedFile: `src/modules/module-${changed}.tsx`,
    changedLinePattern: /edit -1/,
    changeLine: (run) => `edit ${run}`,
  };
}

function withChangedLine(scenario: Scenario, run: number): Map<string, string> {
  const files = new Map(scenario.files);
  const original = files.get(scenario.changedFile) ?? "";
  files.set(
    scenario.changedFile,
    original.replace(scenario.changedLinePattern, scenario.changeLine(run)),
  );
  return files;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/**
 * lib/preview marks itself `server-only`, whose default export throws outside React Server
 * Components; a benchmark is server code too, so the marker resolves to an empty module here,
 * as vitest's alias does for tests.
 */
function allowServerOnlyModules(): void {
  const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "server-only") return { url: "data:text/javascript,", shortCircuit: true };
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runPreviewBench();
}
