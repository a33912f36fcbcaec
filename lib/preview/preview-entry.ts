import { defaultPreviewEntry, findLocalAssets } from "./index-html";
import type { PreviewDiagnostic } from "./preview-types";
import type { VirtualFiles } from "./virtual-files";

/** How a revision is entered: the file reported as its entry and the synthetic module esbuild starts from. */
export interface PreviewEntryPlan {
  /** Workspace path of the first module script ("src/main.tsx"). */
  entry: string;
  /** Imports, in document order, of every local module script and stylesheet index.html loads. */
  entrySource: string;
  /** Problems that stop the build before esbuild runs (a missing entry file). */
  diagnostics: PreviewDiagnostic[];
}

/**
 * Reads index.html the way Vite does: its local module scripts and stylesheets become the bundle's
 * entry, so a renamed entry or a second script needs no builder change. Without index.html, or
 * when it loads no module script, src/main.tsx is used when it exists.
 */
export function planPreviewEntry(files: VirtualFiles): PreviewEntryPlan {
  const html = files.readText("index.html");
  const assets = html === undefined ? [] : findLocalAssets(html);
  const diagnostics: PreviewDiagnostic[] = [];
  for (const asset of assets) {
    if (files.has(asset.path)) continue;
    diagnostics.push({
      file: "index.html",
      line: asset.line,
      column: null,
      message: `index.html loads "/${asset.path}", which is not a file of the app.`,
      severity: "error",
    });
  }
  const imported = assets.map((asset) => asset.path);
  const firstScript = assets.find((asset) => asset.kind === "module-script");
  if (!firstScript) {
    if (files.has(defaultPreviewEntry)) {
      imported.push(defaultPreviewEntry);
    } else {
      diagnostics.push({
        file: html === undefined ? null : "index.html",
        line: null,
        column: null,
        message:
          html === undefined
            ? `Nothing to preview: the app has no index.html and no ${defaultPreviewEntry}.`
            : `index.html loads no module script (<script type="module" src="/${defaultPreviewEntry}">) and ${defaultPreviewEntry} does not exist.`,
        severity: "error",
      });
    }
  }
  return {
    entry: firstScript?.path ?? defaultPreviewEntry,
    entrySource: imported.map((file) => `import ${JSON.stringify(`/${file}`)};`).join("\n"),
    diagnostics,
  };
}
