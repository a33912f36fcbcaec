import fs from "node:fs";
import path from "node:path";
import type { PatchFileSource } from "./patch-result";

const utf8 = new TextDecoder("utf-8", { fatal: true });
// Folders a directory listing skips: never patch targets, and slow to walk.
const skippedDirectories = new Set([".git", "node_modules"]);

function lstat(absolute: string): fs.Stats | null {
  try {
    return fs.lstatSync(absolute);
  } catch {
    return null;
  }
}

/**
 * The first existing component of `relative` (under `root`) that is a symbolic link, or null.
 * The CLI refuses such paths: a link could lead a read or write outside the folder.
 */
export function symbolicLinkOnPath(root: string, relative: string): string | null {
  const segments = relative.split("/");
  for (let count = 1; count <= segments.length; count += 1) {
    const prefix = segments.slice(0, count).join("/");
    const stats = lstat(path.join(root, prefix));
    if (!stats) return null;
    if (stats.isSymbolicLink()) return prefix;
  }
  return null;
}

/**
 * A folder on disk as a {@link PatchFileSource}. Text is strict UTF-8 without NUL bytes;
 * anything else exists but reads as `undefined` (not text). Never follows a symbolic link:
 * files are opened with O_NOFOLLOW and listings skip links.
 */
export class DirectoryFileSource implements PatchFileSource {
  private readonly root: string;
  private readonly cache = new Map<string, string | undefined>();

  /** @param root an absolute, already-resolved folder path */
  constructor(root: string) {
    this.root = root;
  }

  has(relative: string): boolean {
    const stats = lstat(path.join(this.root, relative));
    return stats !== null && !stats.isDirectory();
  }

  isDirectory(relative: string): boolean {
    return lstat(path.join(this.root, relative))?.isDirectory() === true;
  }

  get(relative: string): string | undefined {
    if (this.cache.has(relative)) return this.cache.get(relative);
    let text: string | undefined;
    try {
      const descriptor = fs.openSync(
        path.join(this.root, relative),
        fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW,
      );
      try {
        if (fs.fstatSync(descriptor).isFile()) {
          const bytes = fs.readFileSync(descriptor);
          text = bytes.includes(0) ? undefined : utf8.decode(bytes);
        }
      } finally {
        fs.closeSync(descriptor);
      }
    } catch {
      text = undefined; // missing, unreadable, a link, or not UTF-8: all "no text here"
    }
    this.cache.set(relative, text);
    return text;
  }

  *keys(): Iterable<string> {
    const pending = [""];
    while (pending.length > 0) {
      const directory = pending.pop() as string;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(this.root, directory), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const relative = directory === "" ? entry.name : `${directory}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!skippedDirectories.has(entry.name)) pending.push(relative);
        } else if (entry.isFile()) {
          yield relative;
        }
      }
    }
  }
}
