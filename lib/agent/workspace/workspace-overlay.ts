import "server-only";
import type { Executor } from "@/db/client";
import type { FileChange } from "@/lib/workspace";
import { decodeText, loadBlobs, loadManifest, resolveRevision } from "@/lib/workspace";
import { appTotalsProblem, fileSizeProblem, type LimitProblem } from "@/lib/workspace/limits";
import type { Manifest } from "@/lib/workspace/tree-store";

/**
 * A run's private view of the draft: the base revision plus the run's own edits. Tools read
 * through it (so a read sees the run's earlier patches) and nothing reaches the store until the
 * run ends and `changes()` becomes one revision — a failed or cancelled run leaves no trace.
 */
export class WorkspaceOverlay {
  private readonly edits = new Map<string, string | null>();
  private readonly textCache = new Map<string, string | null>();

  private constructor(
    private readonly db: Executor,
    readonly baseRevisionId: string,
    private readonly baseManifest: Manifest,
  ) {}

  static async open(
    db: Executor,
    { appId, revisionId }: { appId: string; revisionId: string },
  ): Promise<WorkspaceOverlay> {
    const revision = await resolveRevision(db, { appId, revisionId });
    return new WorkspaceOverlay(db, revision.id, await loadManifest(db, revision.rootTreeHash));
  }

  /** Every path in the overlay, sorted. */
  paths(): string[] {
    const paths = new Set(this.baseManifest.keys());
    for (const [path, content] of this.edits) {
      if (content === null) paths.delete(path);
      else paths.add(path);
    }
    return [...paths].sort();
  }

  has(path: string): boolean {
    if (this.edits.has(path)) return this.edits.get(path) !== null;
    return this.baseManifest.has(path);
  }

  sizeOf(path: string): number | undefined {
    const edited = this.edits.get(path);
    if (edited !== undefined) return edited === null ? undefined : Buffer.byteLength(edited);
    return this.baseManifest.get(path)?.size;
  }

  /** Whether the file exists and is binary (binary files can't be read as text or patched). */
  async isBinary(path: string): Promise<boolean> {
    if (this.edits.has(path) || !this.baseManifest.has(path)) return false;
    return (await this.readText(path)) === undefined;
  }

  /** The file's text, or undefined when it does not exist or is binary. */
  async readText(path: string): Promise<string | undefined> {
    if (this.edits.has(path)) return this.edits.get(path) ?? undefined;
    const entry = this.baseManifest.get(path);
    if (!entry) return undefined;
    if (!this.textCache.has(path)) {
      const bytes = (await loadBlobs(this.db, [entry.hash])).get(entry.hash)!;
      this.textCache.set(path, decodeText(bytes));
    }
    return this.textCache.get(path) ?? undefined;
  }

  /** Preloads text for many paths at once (one query), so synchronous readers can use `peekText`. */
  async preload(paths: string[]): Promise<void> {
    const wanted = paths.filter(
      (path) => !this.edits.has(path) && !this.textCache.has(path) && this.baseManifest.has(path),
    );
    const blobs = await loadBlobs(
      this.db,
      wanted.map((path) => this.baseManifest.get(path)!.hash),
    );
    for (const path of wanted)
      this.textCache.set(path, decodeText(blobs.get(this.baseManifest.get(path)!.hash)!));
  }

  /** Whether `peekText` can answer for this path without a read (edited, or preloaded). */
  isLoaded(path: string): boolean {
    return this.edits.has(path) || this.textCache.has(path);
  }

  /** Whether some file lives under this path, i.e. it is a directory of the overlay. */
  isDirectory(path: string): boolean {
    const prefix = `${path.replace(/\/+$/, "")}/`;
    return this.paths().some((candidate) => candidate.startsWith(prefix));
  }

  /** Synchronous read for paths already loaded (edited or preloaded). */
  peekText(path: string): string | undefined {
    if (this.edits.has(path)) return this.edits.get(path) ?? undefined;
    return this.textCache.get(path) ?? undefined;
  }

  write(path: string, content: string): void {
    this.edits.set(path, content);
  }

  delete(path: string): void {
    this.edits.set(path, null);
  }

  /**
   * Why writing `updates` (path → new text, null to delete) would break an app limit, or null.
   * Tools check before they write, so the model hears of a limit while it can still react, and
   * the run's other edits land instead of the whole run failing at commit.
   */
  limitProblem(updates: ReadonlyMap<string, string | null>): LimitProblem | null {
    let files = 0;
    let size = 0;
    for (const path of this.paths()) {
      if (updates.has(path)) continue;
      files += 1;
      size += this.sizeOf(path) ?? 0;
    }
    for (const [path, content] of updates) {
      if (content === null) continue;
      const bytes = Buffer.byteLength(content);
      const tooLarge = fileSizeProblem(path, bytes);
      if (tooLarge) return tooLarge;
      files += 1;
      size += bytes;
    }
    return appTotalsProblem({ files, size });
  }

  /** The run's net changes against the base; edits that restored the original text drop out. */
  async changes(): Promise<FileChange[]> {
    const changes: FileChange[] = [];
    // A copy: the loop deletes and re-adds entries, which would move them to the end of a live Map forever.
    for (const [path, content] of [...this.edits]) {
      const inBase = this.baseManifest.has(path);
      if (content === null) {
        if (inBase) changes.push({ type: "delete", path });
        continue;
      }
      if (inBase) {
        this.edits.delete(path);
        const original = await this.readText(path);
        this.edits.set(path, content);
        if (original === content) continue;
      }
      changes.push({ type: "write", path, content });
    }
    return changes;
  }

  /** The files as bytes, for the preview bundler's verification build. */
  async snapshot(): Promise<Map<string, Uint8Array | string>> {
    const files = new Map<string, Uint8Array | string>();
    const hashes = [...this.baseManifest.values()].map((entry) => entry.hash);
    const blobs = await loadBlobs(this.db, hashes);
    for (const [path, entry] of this.baseManifest) files.set(path, blobs.get(entry.hash)!);
    for (const [path, content] of this.edits) {
      if (content === null) files.delete(path);
      else files.set(path, content);
    }
    return files;
  }
}
