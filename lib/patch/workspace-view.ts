import type { PatchFileSource } from "./patch-result";

export type ReadOutcome =
  | { kind: "text"; text: string }
  | { kind: "missing" }
  | { kind: "not-text" };

/**
 * The workspace as a patch sees it while applying: the caller's files with this patch's pending
 * writes and deletions on top. Nothing reaches the caller until every operation succeeded.
 */
export class WorkspaceView {
  private readonly source: PatchFileSource;
  private readonly pending = new Map<string, string | null>();
  private sourceKeys: string[] | null = null;

  constructor(source: PatchFileSource) {
    this.source = source;
  }

  exists(path: string): boolean {
    const pending = this.pending.get(path);
    if (pending !== undefined) return pending !== null;
    return this.source.has(path);
  }

  read(path: string): ReadOutcome {
    const pending = this.pending.get(path);
    if (pending !== undefined)
      return pending === null ? { kind: "missing" } : { kind: "text", text: pending };
    if (!this.source.has(path)) return { kind: "missing" };
    const text = this.source.get(path);
    return text === undefined ? { kind: "not-text" } : { kind: "text", text };
  }

  write(path: string, text: string): void {
    this.pending.set(path, text);
  }

  remove(path: string): void {
    this.pending.set(path, null);
  }

  /** The caller's paths, read once and only when a directory must be told apart. */
  private keys(): string[] {
    this.sourceKeys ??= [...this.source.keys()];
    return this.sourceKeys;
  }

  /** True when some existing file lies under `path/`. */
  isDirectory(path: string): boolean {
    const prefix = `${path}/`;
    for (const [pendingPath, text] of this.pending)
      if (text !== null && pendingPath.startsWith(prefix)) return true;
    if (this.source.isDirectory) return this.source.isDirectory(path);
    return this.keys().some((key) => key.startsWith(prefix) && this.pending.get(key) !== null);
  }

  /** The nearest ancestor of `path` that is a file, which would have to become a directory. */
  fileAncestor(path: string): string | null {
    const segments = path.split("/");
    for (let count = 1; count < segments.length; count += 1) {
      const ancestor = segments.slice(0, count).join("/");
      if (this.exists(ancestor)) return ancestor;
    }
    return null;
  }

  /** Existing paths that look like `path` (same name elsewhere, or a different case), for "did you mean". */
  similarPaths(path: string): string[] {
    const name = path.split("/").at(-1)?.toLowerCase() ?? "";
    const lowered = path.toLowerCase();
    const candidates = [...this.keys(), ...[...this.pending.keys()]].filter((key) =>
      this.exists(key),
    );
    const unique = [...new Set(candidates)];
    const sameCase = unique.filter((key) => key.toLowerCase() === lowered);
    const sameName = unique.filter(
      (key) => key.split("/").at(-1)?.toLowerCase() === name && !sameCase.includes(key),
    );
    return [...sameCase, ...sameName].slice(0, 3);
  }

  /** The paths whose final state differs from the caller's: new text, or null when removed. */
  updates(): Map<string, string | null> {
    const updates = new Map<string, string | null>();
    for (const [path, text] of this.pending) {
      const existed = this.source.has(path);
      if (text === null ? existed : !existed || this.source.get(path) !== text)
        updates.set(path, text);
    }
    return updates;
  }
}
