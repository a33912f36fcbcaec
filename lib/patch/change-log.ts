import type { PatchChange } from "./patch-result";

/**
 * Collects the per-file changes of a patch, folding several operations on one file into the
 * change a reader would expect: two updates add up, an add then an update stays an add, an
 * update then a move is a move, a delete then an add is an update, an add then a delete is
 * nothing.
 */
export class ChangeLog {
  private readonly changes: PatchChange[] = [];

  private find(path: string): PatchChange | undefined {
    return this.changes.find((change) => change.path === path && change.op !== "delete");
  }

  private drop(change: PatchChange): void {
    this.changes.splice(this.changes.indexOf(change), 1);
  }

  record(change: PatchChange): void {
    const source = change.op === "rename" ? change.from_path : change.path;
    const earlier = source === undefined ? undefined : this.find(source);
    const deletedEarlier = this.changes.find(
      (entry) => entry.path === change.path && entry.op === "delete",
    );
    if (change.op === "add" && deletedEarlier && !change.from_path) {
      deletedEarlier.op = "update";
      deletedEarlier.additions = change.additions;
      return;
    }
    if (!earlier) {
      this.changes.push({ ...change });
      return;
    }
    if (change.op === "update" || change.op === "rename") {
      earlier.additions += change.additions;
      earlier.deletions += change.deletions;
      if (change.op === "rename") {
        earlier.path = change.path;
        if (earlier.op === "update") {
          earlier.op = "rename";
          earlier.from_path = source;
        }
      }
      return;
    }
    if (change.op === "delete") {
      if (earlier.op === "add") {
        this.drop(earlier);
        return;
      }
      // The file deleted is the original one: its lines are those deleted now, less the patch's own.
      const deletions = change.deletions + earlier.deletions - earlier.additions;
      const path = earlier.op === "rename" && earlier.from_path ? earlier.from_path : change.path;
      this.drop(earlier);
      this.changes.push({ path, op: "delete", additions: 0, deletions });
      return;
    }
    this.changes.push({ ...change });
  }

  list(): PatchChange[] {
    return this.changes.map((change) => ({ ...change }));
  }
}
