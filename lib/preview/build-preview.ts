import "server-only";
import path from "node:path";
import { providedPackageNames } from "./allowed-packages";
import { AppBundler, bundleSourceMap, type PackagesForBuild } from "./app-bundler";
import { packageJsonProblem, readAppDependencies } from "./app-dependencies";
import { BoundedLru } from "./bounded-lru";
import { PackageInstaller } from "./package-installer";
import type { PreviewBuild, PreviewBuildInput } from "./preview-types";
import { VirtualFiles } from "./virtual-files";

/** Bounds of a preview builder; the defaults suit one server process. */
export interface PreviewBuilderOptions {
  /** Folder whose node_modules provide the allowed packages and tailwindcss (default: cwd). */
  builderRoot?: string;
  /** Builds kept in memory, by revision (default 50). */
  maxCachedBuilds?: number;
  /** Live esbuild contexts, one per app; the least recently used is disposed (default 8). */
  maxContexts?: number;
  /**
   * Installs the npm packages an app declares in package.json; without it, a declared package
   * that the builder does not provide is a build error.
   */
  packageInstaller?: PackageInstaller;
}

/** Counters that make caching and incremental rebuilds observable in tests and benchmarks. */
export interface PreviewBuilderStats {
  /** Builds actually bundled (cache hits and shared in-flight builds excluded). */
  bundles: number;
  cacheHits: number;
  contextsCreated: number;
  /** Bundles that rebuilt an existing esbuild context. */
  incrementalRebuilds: number;
  liveContexts: number;
}

/** Builds revisions into previews, caching them by revision and rebuilding incrementally per app. */
export interface PreviewBuilder {
  build(input: PreviewBuildInput): Promise<PreviewBuild>;
  /**
   * The source map of a successful build of these files (made on first request, then kept with
   * the build): bundle positions → the app's files. Null when it cannot be made.
   */
  sourceMap(input: PreviewBuildInput, build: PreviewBuild): Promise<string | null>;
  stats(): PreviewBuilderStats;
  /** Disposes every esbuild context and forgets every build. */
  dispose(): Promise<void>;
}

/**
 * Creates an independent preview builder. Builds are cached per revision key (LRU); concurrent
 * requests for one key share a single build. Each app gets one esbuild context, chosen by
 * `appId`, or else by the context that built `previousKey`; contexts are bounded and disposed on
 * eviction. Unexpected failures (not the app's own errors) reject and are not cached.
 */
export function createPreviewBuilder(options: PreviewBuilderOptions = {}): PreviewBuilder {
  const builderRoot = options.builderRoot ?? process.cwd();
  const maxCachedBuilds = options.maxCachedBuilds ?? 50;
  const pendingDisposals = new Set<Promise<void>>();
  const bundlers = new BoundedLru<string, AppBundler>(options.maxContexts ?? 8, (bundler) => {
    const disposal = bundler.dispose().finally(() => pendingDisposals.delete(disposal));
    pendingDisposals.add(disposal);
  });
  const builds = new BoundedLru<string, PreviewBuild>(maxCachedBuilds);
  // Which bundler each recent revision went to, so a child revision can follow its parent.
  const bundlerKeyByRevision = new BoundedLru<string, string>(maxCachedBuilds * 4);
  const inFlight = new Map<string, Promise<PreviewBuild>>();
  // Kept as long as the build object lives (the build cache holds it).
  const sourceMaps = new WeakMap<PreviewBuild, Promise<string | null>>();
  const counters = { bundles: 0, cacheHits: 0, contextsCreated: 0, incrementalRebuilds: 0 };

  const bundlerFor = (input: PreviewBuildInput): AppBundler => {
    const bundlerKey =
      input.appId !== undefined
        ? `app:${input.appId}`
        : ((input.previousKey !== undefined
            ? bundlerKeyByRevision.get(input.previousKey)
            : undefined) ?? `revision:${input.key}`);
    bundlerKeyByRevision.set(input.key, bundlerKey);
    let bundler = bundlers.get(bundlerKey);
    if (!bundler) {
      bundler = new AppBundler(builderRoot);
      bundlers.set(bundlerKey, bundler);
      counters.contextsCreated += 1;
    }
    return bundler;
  };

  const packagesFor = async (files: VirtualFiles): Promise<PackagesForBuild> => {
    const declared = readAppDependencies(files.readText("package.json"), providedPackageNames);
    const names = Object.keys(declared.packages);
    if (declared.diagnostics.length > 0 || names.length === 0) {
      return { installed: null, diagnostics: declared.diagnostics };
    }
    const installer = options.packageInstaller;
    if (!installer) {
      return {
        installed: null,
        diagnostics: [
          packageJsonProblem(
            `Installing packages is not available here; ${names.join(", ")} cannot be used.`,
          ),
        ],
      };
    }
    const installed = await installer.ensure(declared.packages);
    if (!installed.ok) return { installed: null, diagnostics: installed.diagnostics };
    return {
      installed: { root: path.dirname(installed.nodeModules), declared: new Set(names) },
      diagnostics: [],
    };
  };

  const bundle = async (input: PreviewBuildInput): Promise<PreviewBuild> => {
    const files = new VirtualFiles(input.files);
    // Installed first: the bundler is picked (and kept from eviction) only once it is needed.
    const packages = await packagesFor(files);
    const outcome = await bundlerFor(input).bundle(files, packages);
    counters.bundles += 1;
    if (outcome.incremental) counters.incrementalRebuilds += 1;
    const hasErrors = outcome.diagnostics.some((diagnostic) => diagnostic.severity === "error");
    const build: PreviewBuild = Object.freeze({
      ok: outcome.js !== null && !hasErrors,
      key: input.key,
      js: outcome.js,
      css: outcome.css,
      diagnostics: outcome.diagnostics,
      builtAt: new Date().toISOString(),
      durationMs: Math.round(outcome.durationMs * 10) / 10,
      entry: outcome.entry,
    });
    builds.set(input.key, build);
    return build;
  };

  return {
    build(input) {
      const cached = builds.get(input.key);
      if (cached) {
        counters.cacheHits += 1;
        return Promise.resolve(cached);
      }
      const running = inFlight.get(input.key);
      if (running) return running;
      const started = bundle(input).finally(() => inFlight.delete(input.key));
      inFlight.set(input.key, started);
      return started;
    },
    sourceMap(input, build) {
      if (!build.ok || build.js === null) return Promise.resolve(null);
      let made = sourceMaps.get(build);
      if (!made) {
        made = (async () => {
          const files = new VirtualFiles(input.files);
          const packages = await packagesFor(files);
          const result = await bundleSourceMap(builderRoot, files, packages.installed);
          // Only a map of this very bundle places its positions right.
          return result && result.js === build.js ? result.sourceMap : null;
        })();
        made.catch(() => sourceMaps.delete(build));
        sourceMaps.set(build, made);
      }
      return made;
    },
    stats: () => ({ ...counters, liveContexts: bundlers.size }),
    async dispose() {
      bundlers.clear();
      builds.clear();
      await Promise.all(pendingDisposals);
    },
  };
}

const globalForPreview = globalThis as typeof globalThis & {
  patchworkPreviewBuilder?: PreviewBuilder;
};

/**
 * Bundles a revision for the preview with the process-wide builder (see createPreviewBuilder).
 * The builder lives on globalThis so dev-server module reloads do not leak esbuild contexts.
 */
export function buildPreview(input: PreviewBuildInput): Promise<PreviewBuild> {
  return processPreviewBuilder().build(input);
}

/** The source map of a build made by {@link buildPreview} from these files. */
export function previewSourceMap(
  input: PreviewBuildInput,
  build: PreviewBuild,
): Promise<string | null> {
  return processPreviewBuilder().sourceMap(input, build);
}

function processPreviewBuilder(): PreviewBuilder {
  globalForPreview.patchworkPreviewBuilder ??= createPreviewBuilder({
    packageInstaller: new PackageInstaller({
      cacheDirectory: path.resolve(
        /*turbopackIgnore: true*/ process.env.PATCHWORK_DATA_DIR || ".data",
        "packages",
      ),
      registry: process.env.PATCHWORK_NPM_REGISTRY || undefined,
    }),
  });
  return globalForPreview.patchworkPreviewBuilder;
}
