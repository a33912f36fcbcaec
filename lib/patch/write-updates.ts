import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { symbolicLinkOnPath } from "./directory-file-source";

interface Original {
  bytes: Buffer;
  mode: number;
}

function readOriginal(absolute: string): Original | null {
  try {
    const stats = fs.lstatSync(absolute);
    return stats.isFile() ? { bytes: fs.readFileSync(absolute), mode: stats.mode } : null;
  } catch {
    return null;
  }
}

/** Creates the missing directories of `relative`'s parent, returning those it created (outermost first). */
function createParents(root: string, relative: string): string[] {
  const created: string[] = [];
  const segments = relative.split("/").slice(0, -1);
  for (let count = 1; count <= segments.length; count += 1) {
    const directory = path.join(root, ...segments.slice(0, count));
    if (!fs.existsSync(directory)) {
      fs.mkdirSync(directory);
      created.push(directory);
    }
  }
  return created;
}

/** Removes directories a deletion left empty, up to (not including) the root. */
function removeEmptyParents(root: string, relative: string): void {
  let directory = path.dirname(path.join(root, relative));
  while (directory.startsWith(`${root}${path.sep}`)) {
    try {
      if (fs.readdirSync(directory).length > 0) return;
      fs.rmdirSync(directory);
    } catch {
      return;
    }
    directory = path.dirname(directory);
  }
}

/**
 * Writes a patch's updates into a folder as close to atomically as a file system allows: every
 * new text goes to a temporary file beside its target first, then all are renamed into place
 * and deletions done; if anything fails, files already replaced or removed are restored and the
 * error is rethrown. Existing files keep their mode. Refuses (throws) to write through a link.
 *
 * @param root an absolute, resolved folder
 * @param updates workspace-relative path → new text, or null to delete
 */
export function writeUpdates(root: string, updates: ReadonlyMap<string, string | null>): void {
  for (const relative of updates.keys()) {
    const link = symbolicLinkOnPath(root, relative);
    if (link) throw new Error(`refusing to write through the symbolic link ${link}`);
  }
  const originals = new Map<string, Original | null>();
  const staged = new Map<string, string>();
  const createdDirectories: string[] = [];
  // Short and independent of the target's name, so a name near NAME_MAX still gets a temp file.
  const temporaryName = `.patchwork-${randomBytes(6).toString("hex")}.tmp`;
  const committed: string[] = [];
  try {
    for (const [relative, text] of updates) {
      const absolute = path.join(root, relative);
      const original = readOriginal(absolute);
      originals.set(relative, original);
      if (text === null) continue;
      createdDirectories.push(...createParents(root, relative));
      const temporary = path.join(path.dirname(absolute), `${temporaryName}-${staged.size}`);
      fs.writeFileSync(temporary, text, {
        encoding: "utf8",
        flag: "wx",
        mode: original?.mode ?? 0o666,
      });
      if (original) fs.chmodSync(temporary, original.mode);
      staged.set(relative, temporary);
    }
    for (const [relative, text] of updates) {
      const absolute = path.join(root, relative);
      if (text === null) fs.rmSync(absolute, { force: true });
      else fs.renameSync(staged.get(relative) as string, absolute);
      committed.push(relative);
    }
  } catch (error) {
    for (const relative of committed) {
      const absolute = path.join(root, relative);
      const original = originals.get(relative);
      if (original) fs.writeFileSync(absolute, original.bytes, { mode: original.mode });
      else fs.rmSync(absolute, { force: true });
    }
    for (const temporary of staged.values()) fs.rmSync(temporary, { force: true });
    // Innermost first; rmdir (not rm) because rm refuses directories unless recursive.
    for (const directory of createdDirectories.reverse()) {
      try {
        fs.rmdirSync(directory);
      } catch {
        // Not empty (another writer) or already gone: leave it.
      }
    }
    throw error;
  }
  for (const [relative, text] of updates) if (text === null) removeEmptyParents(root, relative);
}
