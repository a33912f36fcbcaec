import { joinAppPath } from "./virtual-files";

/** The module script a Vite-shaped app loads when index.html does not say otherwise. */
export const defaultPreviewEntry = "src/main.tsx";

/** A tag of index.html that loads one of the app's own files, which the bundle replaces. */
export interface IndexHtmlAsset {
  kind: "module-script" | "stylesheet";
  /** The workspace-relative file it loads. */
  path: string;
  /** Offsets of the whole tag (a script's closing tag included) in the original HTML. */
  start: number;
  end: number;
  /** One-based line of the tag, for diagnostics. */
  line: number;
}

const scriptPattern = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const linkPattern = /<link\b([^>]*?)\/?>/gi;
const attributePattern = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
const externalUrlPattern = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Finds the module scripts and stylesheets of index.html that point at files of the app, in
 * document order. External URLs are left alone: the preview's CSP decides what they may load.
 */
export function findLocalAssets(html: string): IndexHtmlAsset[] {
  const searchable = blankOutComments(html);
  const assets: IndexHtmlAsset[] = [];
  for (const match of searchable.matchAll(scriptPattern)) {
    const attributes = parseAttributes(match[1]);
    const source = attributes.get("src");
    if (attributes.get("type")?.toLowerCase() !== "module" || !source) continue;
    const path = localPath(source);
    if (path) assets.push(toAsset("module-script", path, match, html));
  }
  for (const match of searchable.matchAll(linkPattern)) {
    const attributes = parseAttributes(match[1]);
    const relations = (attributes.get("rel") ?? "").toLowerCase().split(/\s+/);
    const href = attributes.get("href");
    if (!relations.includes("stylesheet") || !href) continue;
    const path = localPath(href);
    if (path) assets.push(toAsset("stylesheet", path, match, html));
  }
  return assets.sort((left, right) => left.start - right.start);
}

/** Attribute name (lowercased) → value; valueless attributes map to "". */
export function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(attributePattern)) {
    attributes.set(match[1].toLowerCase(), match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

/** The one-based line number of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) line += 1;
  }
  return line;
}

/** Replaces comments with spaces of the same length, so offsets stay valid and commented-out tags are ignored. */
export function blankOutComments(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, " "));
}

function localPath(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === "" || externalUrlPattern.test(trimmed)) return null;
  const path = joinAppPath("", trimmed.replace(/[?#].*$/, ""));
  return path ? path : null;
}

function toAsset(
  kind: IndexHtmlAsset["kind"],
  path: string,
  match: RegExpMatchArray,
  html: string,
): IndexHtmlAsset {
  const start = match.index ?? 0;
  return { kind, path, start, end: start + match[0].length, line: lineAt(html, start) };
}
