import path from "node:path";
import type {
  Loader,
  OnLoadResult,
  OnResolveArgs,
  OnResolveResult,
  Plugin,
  PluginBuild,
} from "esbuild";
import {
  forbiddenImportMessage,
  isAllowedPackageImport,
  isTailwindStylesheetImport,
  nativelyResolvedPackages,
} from "./allowed-packages";
import { packageNameOf } from "./app-dependencies";
import { bareImportFilterExcept } from "./bare-import-filter";
import { importedLucideNames, lucideSubsetModule } from "./lucide-icon-imports";
import { extensionOf, type VirtualFiles } from "./virtual-files";

/** esbuild namespaces; they show up as "namespace:path" in esbuild's messages. */
export const previewNamespaces = {
  entry: "preview-entry",
  app: "app",
  icons: "preview-icons",
} as const;

/** The entry point name esbuild is given; the plugin maps it to the synthetic entry module. */
export const previewEntryPoint = "preview-entry";

/** The npm packages an app declared, installed for this build. */
export interface InstalledPackages {
  /** The folder holding their node_modules (a content-addressed cache entry). */
  root: string;
  /** The names the app declared; only these may be imported by the app. */
  declared: ReadonlySet<string>;
}

/** What the plugin reads during one build; swapped before every rebuild of a context. */
export interface VirtualBuildState {
  files: VirtualFiles;
  /** The synthetic entry module: imports of index.html's module scripts and stylesheets. */
  entrySource: string;
  packages?: InstalledPackages | null;
}

// The builder's own packages, wherever they are imported from (installed packages included).
const providedPackagePattern = /^(?:react|react-dom|lucide-react|clsx|tailwind-merge)(?:\/.*)?$/;

const loaderByExtension: Record<string, Loader> = {
  ".tsx": "tsx",
  ".ts": "ts",
  ".mts": "ts",
  ".jsx": "jsx",
  // Lenient like many starters: JSX in .js files compiles instead of failing.
  ".js": "jsx",
  ".mjs": "js",
  ".cjs": "js",
  ".css": "css",
  ".json": "json",
  ".png": "dataurl",
  ".jpg": "dataurl",
  ".jpeg": "dataurl",
  ".gif": "dataurl",
  ".webp": "dataurl",
  ".avif": "dataurl",
  ".ico": "dataurl",
  ".svg": "dataurl",
  ".woff": "dataurl",
  ".woff2": "dataurl",
  ".ttf": "dataurl",
  ".otf": "dataurl",
  ".mp3": "dataurl",
  ".mp4": "dataurl",
  ".webm": "dataurl",
};

const sourceExtensions = new Set([".tsx", ".ts", ".mts", ".jsx", ".js", ".mjs", ".cjs"]);
// URLs the browser fetches itself (subject to the preview's CSP) rather than files to bundle.
const browserUrlPattern = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;
const stylesheetKinds = new Set(["import-rule", "composes-from", "url-token"]);

/**
 * An esbuild plugin that serves a revision's files from memory: relative and app-absolute
 * imports resolve inside the revision, allow-listed packages resolve from the builder's
 * node_modules, and anything else is a build error naming the allow-list.
 */
export function createVirtualFilesPlugin(options: {
  builderRoot: string;
  state: () => VirtualBuildState;
  /**
   * "script" bundles the JavaScript and leaves plain stylesheets empty (they are bundled apart,
   * unminified, for Tailwind; minified CSS is not valid Tailwind input); "stylesheet" bundles CSS
   * from a CSS entry.
   */
  mode: "script" | "stylesheet";
}): Plugin {
  const { builderRoot, state, mode } = options;
  return {
    name: "patchwork-virtual-files",
    setup(build) {
      let lucideModule: Promise<string | null> | null = null;
      // The icon subset depends on the app's sources, so it is recomputed once per (re)build.
      build.onStart(() => {
        lucideModule = null;
      });

      build.onResolve({ filter: /^preview-entry$/ }, (args) =>
        args.kind === "entry-point"
          ? { path: "index.html", namespace: previewNamespaces.entry }
          : undefined,
      );

      const resolveFromApp = async (args: OnResolveArgs): Promise<OnResolveResult | undefined> => {
        const specifier = args.path;
        if (stylesheetKinds.has(args.kind) && browserUrlPattern.test(specifier)) {
          return { path: specifier, external: true };
        }
        if (specifier.startsWith(".") || specifier.startsWith("/")) {
          const resolved = state().files.resolveImport(args.importer, specifier);
          if (resolved === null) {
            return { errors: [{ text: `Cannot find "${specifier}" from ${args.importer}.` }] };
          }
          return { path: resolved, namespace: previewNamespaces.app };
        }
        if (stylesheetKinds.has(args.kind) && isTailwindStylesheetImport(specifier)) {
          // Left in the CSS for Tailwind's compiler, which resolves it to the builder's tailwindcss.
          return { path: specifier, external: true };
        }
        if (!isAllowedPackageImport(specifier)) {
          const packages = state().packages;
          if (packages?.declared.has(packageNameOf(specifier))) {
            return resolveFromBuilder(build, packages.root, specifier, args.kind);
          }
          return { errors: [{ text: forbiddenImportMessage(specifier) }] };
        }
        if (specifier === "lucide-react") {
          lucideModule ??= buildLucideModule(build, builderRoot, state().files);
          if ((await lucideModule) !== null) {
            return { path: "lucide-react", namespace: previewNamespaces.icons };
          }
        }
        return resolveFromBuilder(build, builderRoot, specifier, args.kind);
      };
      // Allowed packages other than lucide-react match neither filter: esbuild resolves them
      // itself from the resolveDir app modules get below, saving a round trip per import.
      for (const filter of [/^[./]/, bareImportFilterExcept(nativelyResolvedPackages)]) {
        build.onResolve({ filter, namespace: previewNamespaces.app }, resolveFromApp);
        build.onResolve({ filter, namespace: previewNamespaces.entry }, resolveFromApp);
      }

      // An installed package that imports React (or another provided package) gets the
      // builder's copy: installs skip peers, and two Reacts in one page break hooks.
      build.onResolve({ filter: providedPackagePattern, namespace: "file" }, (args) => {
        const packages = state().packages;
        if (!packages || !args.importer.startsWith(`${packages.root}${path.sep}`)) return undefined;
        return resolveFromBuilder(build, builderRoot, args.path, args.kind);
      });

      build.onLoad({ filter: /.*/, namespace: previewNamespaces.entry }, () => ({
        contents: state().entrySource,
        loader: mode === "script" ? "js" : "css",
      }));

      build.onLoad({ filter: /.*/, namespace: previewNamespaces.icons }, async () => ({
        contents: (await lucideModule) ?? "",
        loader: "js",
        resolveDir: path.dirname(await lucideBarrelPath(build, builderRoot)),
      }));

      build.onLoad({ filter: /.*/, namespace: previewNamespaces.app }, (args): OnLoadResult => {
        const files = state().files;
        const extension = extensionOf(args.path);
        const loader = loaderFor(args.path, extension, mode);
        if (loader === "dataurl") return { contents: files.readBytes(args.path), loader };
        const contents = files.readText(args.path);
        if (contents === undefined) return { errors: [{ text: `${args.path} does not exist.` }] };
        // Only the natively resolved package names are looked up from here; every other
        // specifier is caught by the filters above first.
        return { contents, loader, resolveDir: builderRoot };
      });
    },
  };
}

function loaderFor(file: string, extension: string, mode: "script" | "stylesheet"): Loader {
  if (extension !== ".css") return loaderByExtension[extension] ?? "text";
  if (file.endsWith(".module.css")) return "local-css";
  return mode === "script" ? "empty" : "css";
}

// build.resolve() costs a round trip to esbuild's service (~0.3 ms), and every module of the app
// imports react/jsx-runtime; node_modules do not change while the server runs, so resolve once.
const packageResolutions = new Map<string, Promise<OnResolveResult>>();

function resolveFromBuilder(
  build: PluginBuild,
  builderRoot: string,
  specifier: string,
  kind: OnResolveArgs["kind"],
): Promise<OnResolveResult> {
  const cacheKey = `${builderRoot}\u0000${kind}\u0000${specifier}`;
  let resolution = packageResolutions.get(cacheKey);
  if (!resolution) {
    resolution = build
      .resolve(specifier, { kind, resolveDir: builderRoot, namespace: "file" })
      .then((result): OnResolveResult => {
        if (result.errors.length > 0) {
          packageResolutions.delete(cacheKey);
          return { errors: result.errors };
        }
        return { path: result.path, namespace: "file", sideEffects: result.sideEffects };
      });
    packageResolutions.set(cacheKey, resolution);
  }
  return resolution;
}

const barrelPaths = new Map<string, Promise<string>>();

function lucideBarrelPath(build: PluginBuild, builderRoot: string): Promise<string> {
  let barrelPath = barrelPaths.get(builderRoot);
  if (!barrelPath) {
    barrelPath = build
      .resolve("lucide-react", {
        kind: "import-statement",
        resolveDir: builderRoot,
        namespace: "file",
      })
      .then((result) => {
        if (result.errors.length > 0)
          throw new Error(`lucide-react is not installed: ${result.errors[0].text}`);
        return result.path;
      });
    barrelPaths.set(builderRoot, barrelPath);
  }
  return barrelPath;
}

async function buildLucideModule(
  build: PluginBuild,
  builderRoot: string,
  files: VirtualFiles,
): Promise<string | null> {
  const sources = files
    .paths()
    .filter((file) => sourceExtensions.has(extensionOf(file)))
    .map((file) => files.readText(file) ?? "");
  const names = importedLucideNames(sources);
  if (names === null) return null;
  return lucideSubsetModule(await lucideBarrelPath(build, builderRoot), names);
}
