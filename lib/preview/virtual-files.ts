import type { PreviewFileContent } from "./preview-types";

const textDecoder = new TextDecoder("utf-8");

// The order Vite and TypeScript try, so `import "./App"` finds App.tsx before App.js.
const resolvableExtensions = [".tsx", ".ts", ".jsx", ".js", ".mjs", ".css", ".json"];
// TypeScript's ESM style names the compiled file (`./util.js`) while the source is util.ts.
const compiledToSourceExtensions: Record<string, string[]> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
};

/**
 * A revision's files as a read-only file system for the bundler. Paths are workspace-relative
 * ("src/App.tsx"); text is decoded once and kept, since esbuild and the Tailwind scanner both read it.
 */
export class VirtualFiles {
  private readonly contents = new Map<string, PreviewFileContent>();
  private readonly texts = new Map<string, string>();

  constructor(files: ReadonlyMap<string, PreviewFileContent>) {
    for (const [path, content] of files) this.contents.set(path.replace(/^\.?\//, ""), content);
  }

  has(path: string): boolean {
    return this.contents.has(path);
  }

  /** Every path, in the order the caller supplied them. */
  paths(): string[] {
    return [...this.contents.keys()];
  }

  /** The file as UTF-8 text, or undefined when it does not exist. */
  readText(path: string): string | undefined {
    const cached = this.texts.get(path);
    if (cached !== undefined) return cached;
    const content = this.contents.get(path);
    if (content === undefined) return undefined;
    const text = typeof content === "string" ? content : textDecoder.decode(content);
    this.texts.set(path, text);
    return text;
  }

  /** The file's raw bytes, or undefined when it does not exist. */
  readBytes(path: string): Uint8Array | undefined {
    const content = this.contents.get(path);
    if (content === undefined || content instanceof Uint8Array) return content;
    return new TextEncoder().encode(content);
  }

  /**
   * Resolves a relative ("./x", "../x") or app-absolute ("/src/x") specifier the way a bundler
   * would: the exact file, then added extensions, then TypeScript's .js → .ts, then index files.
   * Returns null when nothing matches or the path climbs out of the app.
   */
  resolveImport(importerPath: string, specifier: string): string | null {
    const withoutQuery = specifier.replace(/[?#].*$/, "");
    const base = joinAppPath(directoryOf(importerPath), withoutQuery);
    if (base === null) return null;
    if (this.has(base)) return base;
    for (const extension of resolvableExtensions) {
      if (this.has(base + extension)) return base + extension;
    }
    const compiledExtension = Object.keys(compiledToSourceExtensions).find((extension) =>
      base.endsWith(extension),
    );
    if (compiledExtension) {
      const stem = base.slice(0, -compiledExtension.length);
      for (const extension of compiledToSourceExtensions[compiledExtension]) {
        if (this.has(stem + extension)) return stem + extension;
      }
    }
    const directory = base === "" ? "" : `${base}/`;
    for (const extension of resolvableExtensions) {
      if (this.has(`${directory}index${extension}`)) return `${directory}index${extension}`;
    }
    return null;
  }
}

/** The folder part of a workspace path: "src/App.tsx" → "src", "index.html" → "". */
export function directoryOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/**
 * Joins a specifier onto a workspace folder. A leading "/" means the app root, as in Vite.
 * Returns null when ".." would leave the app.
 */
export function joinAppPath(directory: string, specifier: string): string | null {
  const segments = specifier.startsWith("/") ? [] : directory.split("/").filter(Boolean);
  for (const segment of specifier.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return null;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join("/");
}

/** The lowercase extension with its dot ("src/App.tsx" → ".tsx"), or "" when there is none. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}
