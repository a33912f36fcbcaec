import { compile } from "@tailwindcss/node";
import { isTailwindStylesheetImport } from "./allowed-packages";
import { BoundedLru } from "./bounded-lru";
import { lineAt } from "./index-html";
import type { PreviewDiagnostic } from "./preview-types";
import { stripServerPaths } from "./strip-server-paths";
import { extensionOf, type VirtualFiles } from "./virtual-files";

const tailwindPackagePattern = /[\\/]node_modules[\\/]tailwindcss(?:[\\/]|$)/;

type TailwindCompiler = Awaited<ReturnType<typeof compile>>;

// A compiler accumulates every candidate it was given, so each build needs a pristine one. Making
// the next one right after a build takes the ~20 ms compile off the next rebuild's critical path;
// keyed by stylesheet, so apps that keep the starter's CSS share them.
const spareCompilers = new BoundedLru<string, Promise<TailwindCompiler>>(16);

/**
 * Compiles the app's bundled CSS with Tailwind 4's own compiler and the candidates found in its
 * sources. `@import "tailwindcss"` resolves to the builder's tailwindcss; any other import, and
 * `@plugin`/`@config` (which would run JavaScript on the server), is refused.
 */
export async function compileTailwindStylesheet(input: {
  css: string;
  candidates: string[];
  builderRoot: string;
}): Promise<string> {
  const cacheKey = `${input.builderRoot}\u0000${input.css}`;
  const spare = spareCompilers.get(cacheKey);
  spareCompilers.delete(cacheKey);
  const compiler = await (spare ?? createCompiler(input.css, input.builderRoot));
  const output = compiler.build(input.candidates);
  setImmediate(() => {
    const next = createCompiler(input.css, input.builderRoot);
    // A failure here would repeat on the next build, which reports it; nothing to do now.
    next.catch(() => {});
    spareCompilers.set(cacheKey, next);
  });
  return output;
}

/**
 * Places a Tailwind error in the app: Tailwind names the offending class or import in backticks
 * or quotes but gives no position, so the first stylesheet mentioning it is reported.
 */
export function tailwindErrorDiagnostic(
  error: unknown,
  files: VirtualFiles,
  builderRoot: string,
): PreviewDiagnostic {
  const message = stripServerPaths(
    error instanceof Error ? error.message : String(error),
    builderRoot,
  );
  const quoted = message.match(/`([^`]+)`|'([^']+)'|"([^"]+)"/);
  const needle = quoted ? (quoted[1] ?? quoted[2] ?? quoted[3]) : null;
  const stylesheets = files.paths().filter((file) => extensionOf(file) === ".css");
  for (const file of stylesheets) {
    const text = files.readText(file) ?? "";
    const offset = needle ? text.indexOf(needle) : -1;
    if (offset !== -1) {
      const line = lineAt(text, offset);
      const column = offset - text.lastIndexOf("\n", offset - 1);
      return { file, line, column, message: `Tailwind: ${message}`, severity: "error" };
    }
  }
  return {
    file: stylesheets[0] ?? null,
    line: null,
    column: null,
    message: `Tailwind: ${message}`,
    severity: "error",
  };
}

async function createCompiler(css: string, builderRoot: string): Promise<TailwindCompiler> {
  const compiler = await compile(css, {
    base: builderRoot,
    onDependency: () => {},
    customCssResolver: async (id, base) => {
      // Relative imports are tailwindcss's own (index.css → theme.css); from the app's CSS they
      // would read the builder's disk (`@reference "../x"` passes through esbuild untouched).
      const insideTailwind = tailwindPackagePattern.test(base);
      if (isTailwindStylesheetImport(id) || (insideTailwind && id.startsWith(".")))
        return undefined;
      throw new Error(`\`${id}\` cannot be imported here; only "tailwindcss" is available to CSS.`);
    },
    customJsResolver: async (id) => {
      throw new Error(
        `\`${id}\`: Tailwind plugins and config files are not available in previews.`,
      );
    },
  });
  // `@source "<path>"` names folders to scan for classes. Previews scan the app's own files and
  // nothing else, so such a path would be silently ignored at best and a look at the server's
  // folders at worst: refuse it by name. `@source not …` and `@source inline(…)` stay allowed.
  const scanned = compiler.sources.find((source) => !source.negated);
  if (scanned) {
    throw new Error(
      `\`@source "${scanned.pattern}"\` is not available in previews: every file of the app is already scanned for classes.`,
    );
  }
  return compiler;
}
