import "server-only";
import * as esbuild from "esbuild";
import { isBuildFailure, toPreviewDiagnostic } from "./esbuild-diagnostics";
import { planPreviewEntry } from "./preview-entry";
import type { PreviewDiagnostic } from "./preview-types";
import { stylesheetsInImportOrder } from "./stylesheet-order";
import { CandidateScanner } from "./tailwind-candidates";
import { compileTailwindStylesheet, tailwindErrorDiagnostic } from "./tailwind-stylesheet";
import type { VirtualFiles } from "./virtual-files";
import {
  createVirtualFilesPlugin,
  type InstalledPackages,
  previewEntryPoint,
  previewNamespaces,
  type VirtualBuildState,
} from "./virtual-files-plugin";

const entryInput = `${previewNamespaces.entry}:index.html`;

/** What one bundling pass produced, before it becomes a cached PreviewBuild. */
/** The app's declared packages for one build: installed, or why they could not be. */
export interface PackagesForBuild {
  installed: InstalledPackages | null;
  diagnostics: PreviewDiagnostic[];
}

export interface BundleOutcome {
  js: string | null;
  css: string | null;
  diagnostics: PreviewDiagnostic[];
  entry: string;
  /** True when an existing esbuild context was rebuilt rather than created. */
  incremental: boolean;
  durationMs: number;
}

/**
 * Bundles the revisions of one app through a single long-lived esbuild context: each bundle swaps
 * the context's virtual files and calls `rebuild()`, so esbuild re-parses only modules whose
 * content changed. Bundles run one at a time because the files are shared state of the context.
 */
export class AppBundler {
  private context: Promise<esbuild.BuildContext<{ write: false; metafile: true }>> | null = null;
  private state: VirtualBuildState | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly candidateScanner = new CandidateScanner();
  private disposed = false;

  constructor(private readonly builderRoot: string) {}

  /** Bundles `files` after any bundle already running; rejects only on unexpected failures. */
  bundle(
    files: VirtualFiles,
    packages: PackagesForBuild = { installed: null, diagnostics: [] },
  ): Promise<BundleOutcome> {
    const run = this.queue.then(() => this.bundleNow(files, packages));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Releases the esbuild context after the bundles already queued, which still complete. */
  dispose(): Promise<void> {
    const disposal = this.queue.then(async () => {
      this.disposed = true;
      const context = this.context;
      this.context = null;
      if (context) await (await context).dispose();
    });
    this.queue = disposal.catch(() => {});
    return disposal;
  }

  private async bundleNow(files: VirtualFiles, packages: PackagesForBuild): Promise<BundleOutcome> {
    if (this.disposed) throw new Error("This preview bundler was disposed.");
    try {
      return await this.bundleFiles(files, packages);
    } finally {
      // The context only reads files during a bundle; holding them longer only costs memory.
      this.state = null;
    }
  }

  private async bundleFiles(
    files: VirtualFiles,
    packages: PackagesForBuild,
  ): Promise<BundleOutcome> {
    const startedAt = performance.now();
    const plan = planPreviewEntry(files);
    const finish = (
      outcome: Pick<BundleOutcome, "js" | "css" | "diagnostics" | "incremental">,
    ): BundleOutcome => ({
      ...outcome,
      entry: plan.entry,
      durationMs: performance.now() - startedAt,
    });
    if (plan.diagnostics.length > 0 || packages.diagnostics.length > 0) {
      return finish({
        js: null,
        css: null,
        diagnostics: [...packages.diagnostics, ...plan.diagnostics],
        incremental: false,
      });
    }

    this.state = { files, entrySource: plan.entrySource, packages: packages.installed };
    const incremental = this.context !== null;
    this.context ??= this.createContext();
    let result: esbuild.BuildResult<{ write: false; metafile: true }>;
    try {
      result = await (await this.context).rebuild();
    } catch (error) {
      if (!isBuildFailure(error)) {
        // Not the app's fault (the esbuild service died, say): start from a fresh context next time.
        const broken = this.context;
        this.context = null;
        await broken.then((context) => context.dispose()).catch(() => {});
        throw error;
      }
      const diagnostics = [
        ...error.errors.map((message) => toPreviewDiagnostic(message, "error", this.builderRoot)),
        ...error.warnings.map((message) =>
          toPreviewDiagnostic(message, "warning", this.builderRoot),
        ),
      ];
      return finish({ js: null, css: null, diagnostics, incremental });
    }

    const diagnostics = result.warnings.map((message) =>
      toPreviewDiagnostic(message, "warning", this.builderRoot),
    );
    const js = result.outputFiles.find((file) => file.path.endsWith(".js"))?.text ?? "";
    // CSS modules are compiled with the script bundle; Tailwind never sees them.
    const moduleCss = result.outputFiles.find((file) => file.path.endsWith(".css"))?.text ?? "";
    const stylesheets = stylesheetsInImportOrder(result.metafile, entryInput);
    if (stylesheets.length === 0) {
      return finish({ js, css: moduleCss || null, diagnostics, incremental });
    }
    const stylesheet = await this.bundleStylesheets(files, stylesheets);
    diagnostics.push(...stylesheet.diagnostics);
    if (stylesheet.css === null) return finish({ js: null, css: null, diagnostics, incremental });
    try {
      const css = await compileTailwindStylesheet({
        css: stylesheet.css,
        candidates: this.candidateScanner.scan(files),
        builderRoot: this.builderRoot,
      });
      return finish({
        js,
        css: moduleCss ? `${css}\n${moduleCss}` : css,
        diagnostics,
        incremental,
      });
    } catch (error) {
      diagnostics.unshift(tailwindErrorDiagnostic(error, files, this.builderRoot));
      return finish({ js: null, css: null, diagnostics, incremental });
    }
  }

  /**
   * Bundles the plain stylesheets (their @imports and url() assets) into one unminified sheet for
   * Tailwind. A one-off build is ~2 ms, cheaper than keeping a second context per app.
   */
  private async bundleStylesheets(
    files: VirtualFiles,
    stylesheets: string[],
  ): Promise<{ css: string | null; diagnostics: PreviewDiagnostic[] }> {
    const state = {
      files,
      entrySource: stylesheets.map((file) => `@import ${JSON.stringify(`/${file}`)};`).join("\n"),
    };
    try {
      const result = await esbuild.build({
        ...sharedOptions(this.builderRoot),
        plugins: [
          createVirtualFilesPlugin({
            builderRoot: this.builderRoot,
            state: () => state,
            mode: "stylesheet",
          }),
        ],
      });
      return {
        css: result.outputFiles.find((file) => file.path.endsWith(".css"))?.text ?? "",
        diagnostics: result.warnings.map((message) =>
          toPreviewDiagnostic(message, "warning", this.builderRoot),
        ),
      };
    } catch (error) {
      if (!isBuildFailure(error)) throw error;
      return {
        css: null,
        diagnostics: [
          ...error.errors.map((message) => toPreviewDiagnostic(message, "error", this.builderRoot)),
          ...error.warnings.map((message) =>
            toPreviewDiagnostic(message, "warning", this.builderRoot),
          ),
        ],
      };
    }
  }

  private createContext(): Promise<esbuild.BuildContext<{ write: false; metafile: true }>> {
    return esbuild.context(
      previewScriptOptions(this.builderRoot, () => {
        if (!this.state) throw new Error("The preview bundler ran without files.");
        return this.state;
      }),
    );
  }
}

/**
 * The esbuild options of a preview's script bundle; exported so the benchmark's plain `build()`
 * baseline bundles exactly what the incremental context does.
 */
export function previewScriptOptions(
  builderRoot: string,
  state: () => VirtualBuildState,
): esbuild.BuildOptions & { write: false; metafile: true } {
  return {
    ...sharedOptions(builderRoot),
    // Inlined as <script type="module">, so ESM costs nothing and allows top-level await.
    format: "esm",
    target: "es2022",
    jsx: "automatic",
    // Production React: a fraction of the development build's size and work.
    define: { "process.env.NODE_ENV": '"production"' },
    minify: true,
    legalComments: "none",
    // No source map here: it costs a third of every rebuild, and is needed only when the app
    // throws. `bundleSourceMap` makes it then, from the same files and options.
    // The import graph orders the stylesheets bundled apart for Tailwind.
    metafile: true,
    plugins: [createVirtualFilesPlugin({ builderRoot, mode: "script", state })],
  };
}

/** Options both the script and the stylesheet builds use. */
function sharedOptions(builderRoot: string): esbuild.BuildOptions & { write: false } {
  return {
    entryPoints: [{ in: previewEntryPoint, out: "app" }],
    absWorkingDir: builderRoot,
    outdir: "/preview",
    bundle: true,
    write: false,
    platform: "browser",
    // App modules get the builder root as resolveDir; the builder's tsconfig.json (paths,
    // JSX settings) must not apply to them.
    tsconfigRaw: {},
    logLevel: "silent",
  };
}

/**
 * The source map of a bundle, made on demand by bundling the same files with the same options
 * plus an external map (esbuild's output is deterministic, so the code is the bundle's own).
 * Returns the JavaScript too, so a caller can check it is the same bundle.
 */
export async function bundleSourceMap(
  builderRoot: string,
  files: VirtualFiles,
  packages: InstalledPackages | null,
): Promise<{ js: string; sourceMap: string } | null> {
  const plan = planPreviewEntry(files);
  if (plan.diagnostics.length > 0) return null;
  const state: VirtualBuildState = { files, entrySource: plan.entrySource, packages };
  try {
    const result = await esbuild.build({
      ...previewScriptOptions(builderRoot, () => state),
      sourcemap: "external",
      sourcesContent: false,
    });
    const js = result.outputFiles.find((file) => file.path.endsWith(".js"))?.text;
    const sourceMap = result.outputFiles.find((file) => file.path.endsWith(".js.map"))?.text;
    return js !== undefined && sourceMap !== undefined ? { js, sourceMap } : null;
  } catch (error) {
    if (isBuildFailure(error)) return null;
    throw error;
  }
}
