import "server-only";
import {
  previewContentSecurityPolicy,
  previewResponseHeaders,
  sha256Source,
} from "./content-security-policy";
import { errorOverlayBody, errorOverlayStyles, escapeHtml } from "./error-overlay";
import { blankOutComments, findLocalAssets, lineAt, parseAttributes } from "./index-html";
import type { PreviewBuild } from "./preview-types";
import { runtimeErrorReporter } from "./runtime-error-reporter";

/** A complete preview page and the headers it must be served with. */
export interface PreviewDocument {
  html: string;
  headers: Record<string, string>;
  /** The document line the bundle's first line is on (for mapping stack frames); null: none. */
  bundleLine: number | null;
}

const inlineScriptPattern = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const inlineStylePattern = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;

/**
 * Renders the page the preview iframe (or a published URL) serves. A successful build becomes the
 * app's index.html with its local module scripts and stylesheets replaced by the inlined bundle;
 * a failed one becomes an overlay listing the diagnostics instead of the app. `title` is used
 * when index.html has none, and names the app on the overlay. The headers carry a CSP whose
 * hashes allow exactly the inline code of this document.
 */
export function renderPreviewDocument(input: {
  build: PreviewBuild;
  indexHtml?: string;
  title?: string;
  /**
   * The draft preview: run the reporter that tells the builder about runtime errors. Never for
   * a published app, which reports nothing to anyone.
   */
  reportRuntimeErrors?: boolean;
}): PreviewDocument {
  const { build } = input;
  if (!build.ok || build.js === null) return renderErrorOverlay(build, input.title);

  const source = input.indexHtml ?? fallbackIndexHtml(input.title);
  const script = escapeClosingTag(build.js, "script");
  const style = build.css === null ? null : escapeClosingTag(build.css, "style");
  const { scripts: appScripts, styles: appStyles } = inlineBlocks(source);

  const assets = findLocalAssets(source);
  const firstScript = assets.find((asset) => asset.kind === "module-script");
  // The bundle starts on a line of its own, so its columns are the document's.
  const scriptTag = `<script type="module">\n${script}</script>`;
  let html = source;
  // From the end, so earlier offsets stay valid while splicing.
  for (const asset of [...assets].reverse()) {
    const replacement = asset === firstScript ? scriptTag : "";
    html = html.slice(0, asset.start) + replacement + html.slice(asset.end);
  }
  if (!firstScript) html = insertBefore(html, /<\/body\s*>/i, scriptTag);
  if (style !== null) html = insertBefore(html, /<\/head\s*>/i, `<style>${style}</style>`);
  if (input.title && !/<title\b/i.test(blankOutComments(html))) {
    html = insertBefore(html, /<\/head\s*>/i, `<title>${escapeHtml(input.title)}</title>`);
  }

  let reporter: string | null = null;
  if (input.reportRuntimeErrors) {
    // One line, inserted before the bundle: the bundle's line number does not move.
    html = insertBefore(html, /<\/head\s*>/i, `<script>${runtimeErrorReporter(0)}</script>`);
  }
  const bundleLine = lineAt(html, html.indexOf(scriptTag)) + 1;
  if (input.reportRuntimeErrors) {
    reporter = runtimeErrorReporter(bundleLine);
    html = html.replace(
      `<script>${runtimeErrorReporter(0)}</script>`,
      () => `<script>${reporter}</script>`,
    );
  }

  const contentSecurityPolicy = previewContentSecurityPolicy({
    scriptHashes: [`\n${script}`, ...(reporter ? [reporter] : []), ...appScripts].map(sha256Source),
    styleHashes: [...(style === null ? [] : [style]), ...appStyles].map(sha256Source),
  });
  return { html, headers: previewResponseHeaders(contentSecurityPolicy), bundleLine };
}

function renderErrorOverlay(build: PreviewBuild, title: string | undefined): PreviewDocument {
  const pageTitle = title ? `Build failed · ${title}` : "Build failed";
  const html =
    "<!doctype html>\n" +
    '<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(pageTitle)}</title>\n<style>${errorOverlayStyles}</style>\n</head>\n` +
    `<body>\n${errorOverlayBody(build.diagnostics)}\n</body>\n</html>\n`;
  const contentSecurityPolicy = previewContentSecurityPolicy({
    scriptHashes: [],
    styleHashes: [sha256Source(errorOverlayStyles)],
  });
  return { html, headers: previewResponseHeaders(contentSecurityPolicy), bundleLine: null };
}

/**
 * The app's own inline scripts and styles in index.html (a theme snippet, an import map). They
 * are the app's code as much as the bundle is, so they are allowed by hash too.
 */
function inlineBlocks(html: string): { scripts: string[]; styles: string[] } {
  const searchable = blankOutComments(html);
  const scripts: string[] = [];
  for (const match of searchable.matchAll(inlineScriptPattern)) {
    if (parseAttributes(match[1]).has("src")) continue;
    const start = (match.index ?? 0) + match[0].indexOf(">") + 1;
    scripts.push(html.slice(start, start + match[2].length));
  }
  const styles: string[] = [];
  for (const match of searchable.matchAll(inlineStylePattern)) {
    const start = (match.index ?? 0) + match[0].indexOf(">") + 1;
    styles.push(html.slice(start, start + match[1].length));
  }
  return { scripts, styles };
}

/** Keeps inlined code from ending its own element early; `<\/` means the same in JS strings and CSS. */
function escapeClosingTag(code: string, tag: "script" | "style"): string {
  return code.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1");
}

function insertBefore(html: string, pattern: RegExp, insertion: string): string {
  const match = pattern.exec(html);
  if (!match) return html + insertion;
  return html.slice(0, match.index) + insertion + html.slice(match.index);
}

function fallbackIndexHtml(title: string | undefined): string {
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(title ?? "Preview")}</title>\n</head>\n` +
    '<body>\n<div id="root"></div>\n</body>\n</html>\n'
  );
}
