/** The highlighter languages the builder loads; anything else is shown as plain text. */
export type HighlightLanguage =
  | "tsx"
  | "typescript"
  | "jsx"
  | "javascript"
  | "css"
  | "html"
  | "json"
  | "markdown"
  | "text";

const languageByExtension: Record<string, HighlightLanguage> = {
  tsx: "tsx",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  jsx: "jsx",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  css: "css",
  html: "html",
  htm: "html",
  svg: "html",
  json: "json",
  md: "markdown",
  mdx: "markdown",
};

/** Picks a highlighting language from a workspace path's extension. */
export function languageForPath(path: string): HighlightLanguage {
  const name = path.split("/").pop() ?? path;
  const dot = name.lastIndexOf(".");
  if (dot < 0) return "text";
  return languageByExtension[name.slice(dot + 1).toLowerCase()] ?? "text";
}
