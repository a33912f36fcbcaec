const languageByExtension: Record<string, string> = {
  ts: "typescript",
  tsx: "tsx",
  js: "javascript",
  jsx: "jsx",
  mjs: "javascript",
  cjs: "javascript",
  css: "css",
  html: "html",
  json: "json",
  md: "markdown",
  svg: "svg",
  txt: "text",
};

export function languageOf(path: string): string {
  const extension = path.split(".").pop()?.toLowerCase() ?? "";
  return languageByExtension[extension] ?? "text";
}

const outlinePatterns = [
  /^\s*export\s+default\s+(?:async\s+)?function\s+([A-Za-z0-9_$]+)/,
  /^\s*(?:export\s+)?(?:async\s+)?function\s+([A-Za-z0-9_$]+)/,
  /^\s*(?:export\s+)?(?:const|let)\s+([A-Za-z0-9_$]+)\s*=/,
  /^\s*(?:export\s+)?class\s+([A-Za-z0-9_$]+)/,
  /^\s*(?:export\s+)?(?:interface|type)\s+([A-Za-z0-9_$]+)/,
];

/** Top-level declarations with their line numbers: enough for a model to aim a read. */
export function outlineOf(
  path: string,
  text: string,
  limit = 30,
): { name: string; line: number }[] {
  if (!/\.(m|c)?(t|j)sx?$/.test(path)) return [];
  const outline: { name: string; line: number }[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length && outline.length < limit; index += 1) {
    // Only declarations at the start of a line (or exported) count as top level.
    if (/^\s{2,}/.test(lines[index]) && !/^\s*export/.test(lines[index])) continue;
    for (const pattern of outlinePatterns) {
      const match = lines[index].match(pattern);
      if (match) {
        outline.push({ name: match[1], line: index + 1 });
        break;
      }
    }
  }
  return outline;
}
