import "server-only";
import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FileChange } from "@/lib/workspace";
import { workspaceLimits, workspacePathProblem } from "@/lib/workspace";
import { formatBytes } from "@/lib/workspace/limits";

/** Folders engines keep their own state in; never part of the app. */
export const ignoredFolderNames: ReadonlySet<string> = new Set([
  ".git",
  ".codex",
  ".opencode",
  ".claude",
  "node_modules",
]);

/** A file the bridge refused to bring back, and why (shown to the person as a `notice`). */
export interface RefusedPath {
  path: string;
  reason: string;
}

export interface FolderChanges {
  changes: FileChange[];
  refused: RefusedPath[];
}

/** The prefix of every run folder, so start-up can tell ours from anything else in the area. */
const runFolderPrefix = "run-";

/** The run area under the data directory: one private folder per running folder engine. */
export function runArea(dataDirectory: string): string {
  return path.resolve(dataDirectory, "runs");
}

/**
 * Writes a revision's files into a new private folder (0700) for one run, and returns its path.
 * An existing folder of the same run (a crashed earlier attempt) is replaced.
 */
export async function materializeFolder(
  area: string,
  runId: string,
  files: ReadonlyMap<string, Uint8Array>,
): Promise<string> {
  await mkdir(area, { recursive: true, mode: 0o700 });
  // The owner's pid in the name lets start-up tell a dead process's folders from a live sibling's.
  const directory = path.join(
    area,
    `${runFolderPrefix}${process.pid}-${runId.replace(/[^a-zA-Z0-9-]/g, "")}`,
  );
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { mode: 0o700 });
  for (const [relative, content] of files) {
    const target = path.join(directory, relative);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, content, { mode: 0o600 });
  }
  return directory;
}

/**
 * Compares the folder with the files it was made from and returns the changes as FileChange[]:
 * writes for adds and updates, deletes, and renames where a deleted file's exact content reappears
 * under a new path. Symlinks, invalid paths and files beyond the limits are refused, not followed.
 */
export async function collectFolderChanges(
  directory: string,
  base: ReadonlyMap<string, Uint8Array>,
): Promise<FolderChanges> {
  const refused: RefusedPath[] = [];
  const current = new Map<string, Uint8Array>();
  let totalBytes = 0;
  const walk = async (relativeDirectory: string): Promise<void> => {
    const entries = await readdir(path.join(directory, relativeDirectory), { withFileTypes: true });
    entries.sort((left, right) => (left.name < right.name ? -1 : 1));
    for (const entry of entries) {
      const relative = relativeDirectory ? `${relativeDirectory}/${entry.name}` : entry.name;
      if (entry.isDirectory() && ignoredFolderNames.has(entry.name)) continue;
      const absolute = path.join(directory, relative);
      const stats = await lstat(absolute);
      if (stats.isSymbolicLink()) {
        refused.push({ path: relative, reason: "symbolic links are not allowed" });
        continue;
      }
      if (stats.isDirectory()) {
        await walk(relative);
        continue;
      }
      if (!stats.isFile()) {
        refused.push({ path: relative, reason: "only regular files are kept" });
        continue;
      }
      const problem = workspacePathProblem(relative);
      if (problem) {
        refused.push({ path: relative, reason: problem });
        continue;
      }
      if (stats.size > workspaceLimits.maxFileBytes) {
        refused.push({
          path: relative,
          reason: `it is ${formatBytes(stats.size)}; files are limited to ${formatBytes(workspaceLimits.maxFileBytes)}`,
        });
        continue;
      }
      if (current.size >= workspaceLimits.maxAppFiles) {
        refused.push({
          path: relative,
          reason: `an app can hold at most ${workspaceLimits.maxAppFiles} files`,
        });
        continue;
      }
      if (totalBytes + stats.size > workspaceLimits.maxAppBytes) {
        refused.push({
          path: relative,
          reason: `an app can hold at most ${formatBytes(workspaceLimits.maxAppBytes)}`,
        });
        continue;
      }
      totalBytes += stats.size;
      current.set(relative, new Uint8Array(await readFile(absolute)));
    }
  };
  await walk("");

  // A refused path keeps its base version: nothing is deleted because it could not be read back.
  const refusedPaths = new Set(refused.map((entry) => entry.path));
  const deleted = [...base.keys()].filter((file) => !current.has(file) && !refusedPaths.has(file));
  const added = [...current.keys()].filter((file) => !base.has(file));
  const deletedByHash = new Map<string, string[]>();
  for (const file of deleted) {
    const hash = contentHash(base.get(file)!);
    deletedByHash.set(hash, [...(deletedByHash.get(hash) ?? []), file]);
  }
  const changes: FileChange[] = [];
  const renamedFrom = new Set<string>();
  for (const file of added) {
    const candidates = deletedByHash.get(contentHash(current.get(file)!));
    const from = candidates?.shift();
    if (from) {
      renamedFrom.add(from);
      changes.push({ type: "rename", from, to: file });
    } else {
      changes.push({ type: "write", path: file, content: current.get(file)! });
    }
  }
  for (const [file, content] of current) {
    const before = base.get(file);
    if (before && !sameBytes(before, content)) changes.push({ type: "write", path: file, content });
  }
  for (const file of deleted) {
    if (!renamedFrom.has(file)) changes.push({ type: "delete", path: file });
  }
  return { changes, refused };
}

/** Removes a run's folder; never throws for a folder already gone. */
export async function removeFolder(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true });
}

/**
 * Removes run folders whose owning process is gone (start-up); folders of live processes —
 * another server sharing the data directory — stay. Returns how many were removed.
 */
export async function removeLeftoverFolders(area: string): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir(area);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const owner = /^run-(\d+)-/.exec(entry);
    if (!owner || processIsAlive(Number(owner[1]))) continue;
    await rm(path.join(area, entry), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but someone else's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function contentHash(content: Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return left.byteLength === right.byteLength && Buffer.from(left).equals(Buffer.from(right));
}
