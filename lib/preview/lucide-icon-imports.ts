import { readFileSync } from "node:fs";

/**
 * lucide-react's entry re-exports ~1,700 icon modules, and esbuild links every one of them on each
 * rebuild (~100 ms, most of a rebuild). Like Next's `optimizePackageImports`, the preview swaps
 * the entry for a small module that re-exports only the names the app imports.
 */

interface BarrelExport {
  /** The module the barrel re-exports from, relative to the barrel ("./icons/rocket.mjs"). */
  from: string;
  /** The name exported by that module ("default" for icons). */
  imported: string;
}

const exportFromPattern = /export\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const namedImportPattern =
  /\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']lucide-react["']/g;
const anyReferencePattern = /["']lucide-react["']/g;

const barrelCache = new Map<string, Map<string, BarrelExport>>();

/**
 * The lucide-react names the app's sources import, or null when some import is not a plain named
 * import (a namespace import, a side-effect import, `import()`); then the full entry must be used.
 */
export function importedLucideNames(sources: Iterable<string>): Set<string> | null {
  const names = new Set<string>();
  for (const source of sources) {
    if (!source.includes("lucide-react")) continue;
    const references = source.match(anyReferencePattern)?.length ?? 0;
    let namedImports = 0;
    for (const match of source.matchAll(namedImportPattern)) {
      namedImports += 1;
      for (const specifier of match[1].split(",")) {
        const name = specifier
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]
          ?.trim();
        if (name) names.add(name);
      }
    }
    if (namedImports !== references) return null;
  }
  return names;
}

/**
 * Source of a module standing in for lucide-react's entry that re-exports just `names`. Names the
 * entry does not have are left out, so esbuild reports "No matching export" at the app's import.
 * Returns null when a name (such as the `icons` namespace) cannot be re-exported on its own.
 */
export function lucideSubsetModule(barrelPath: string, names: Iterable<string>): string | null {
  const barrel = readBarrel(barrelPath);
  const lines: string[] = [];
  for (const name of [...names].sort()) {
    if (name === "icons") return null;
    const entry = barrel.get(name);
    if (entry)
      lines.push(`export { ${entry.imported} as ${name} } from ${JSON.stringify(entry.from)};`);
  }
  return `${lines.join("\n")}\n`;
}

function readBarrel(barrelPath: string): Map<string, BarrelExport> {
  const cached = barrelCache.get(barrelPath);
  if (cached) return cached;
  const exports = new Map<string, BarrelExport>();
  for (const match of readFileSync(barrelPath, "utf8").matchAll(exportFromPattern)) {
    for (const specifier of match[1].split(",")) {
      const [imported, exported = imported] = specifier.trim().split(/\s+as\s+/);
      if (imported) exports.set(exported.trim(), { from: match[2], imported: imported.trim() });
    }
  }
  barrelCache.set(barrelPath, exports);
  return exports;
}
