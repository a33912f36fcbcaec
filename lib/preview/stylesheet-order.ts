import type { Metafile } from "esbuild";
import { previewNamespaces } from "./virtual-files-plugin";

const appPrefix = `${previewNamespaces.app}:`;

/**
 * The app's plain stylesheets in the order the page would apply them: a depth-first walk of the
 * script bundle's import graph from the entry, each file at its first import, as esbuild orders
 * CSS imported from JavaScript. CSS modules are excluded; they stay in the script bundle.
 */
export function stylesheetsInImportOrder(metafile: Metafile, entryInput: string): string[] {
  const ordered: string[] = [];
  const visited = new Set<string>();
  const visit = (input: string) => {
    if (visited.has(input)) return;
    visited.add(input);
    if (input.startsWith(appPrefix) && input.endsWith(".css") && !input.endsWith(".module.css")) {
      ordered.push(input.slice(appPrefix.length));
      return;
    }
    for (const imported of metafile.inputs[input]?.imports ?? []) {
      if (!imported.external) visit(imported.path);
    }
  };
  visit(entryInput);
  return ordered;
}
