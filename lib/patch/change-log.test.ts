import { describe, expect, it } from "vitest";
import { ChangeLog } from "./change-log";
import type { PatchChange } from "./patch-result";

function fold(changes: PatchChange[]): PatchChange[] {
  const log = new ChangeLog();
  for (const change of changes) log.record(change);
  return log.list();
}

describe("ChangeLog", () => {
  it("keeps independent changes in order", () => {
    const changes: PatchChange[] = [
      { path: "a", op: "update", additions: 1, deletions: 1 },
      { path: "b", op: "add", additions: 3, deletions: 0 },
      { path: "d", op: "rename", from_path: "c", additions: 0, deletions: 0 },
    ];
    expect(fold(changes)).toEqual(changes);
  });

  it("adds up two updates of one file, and an update of an added file", () => {
    expect(
      fold([
        { path: "a", op: "update", additions: 1, deletions: 2 },
        { path: "a", op: "update", additions: 3, deletions: 0 },
        { path: "n", op: "add", additions: 2, deletions: 0 },
        { path: "n", op: "update", additions: 1, deletions: 1 },
      ]),
    ).toEqual([
      { path: "a", op: "update", additions: 4, deletions: 2 },
      { path: "n", op: "add", additions: 3, deletions: 1 },
    ]);
  });

  it("turns an update then a move into a move", () => {
    expect(
      fold([
        { path: "a", op: "update", additions: 1, deletions: 0 },
        { path: "b", op: "rename", from_path: "a", additions: 0, deletions: 1 },
      ]),
    ).toEqual([{ path: "b", op: "rename", from_path: "a", additions: 1, deletions: 1 }]);
  });

  it("drops an add that is deleted again, and turns a delete then an add into an update", () => {
    expect(
      fold([
        { path: "t", op: "add", additions: 2, deletions: 0 },
        { path: "t", op: "delete", additions: 0, deletions: 2 },
        { path: "r", op: "delete", additions: 0, deletions: 5 },
        { path: "r", op: "add", additions: 4, deletions: 0 },
      ]),
    ).toEqual([{ path: "r", op: "update", additions: 4, deletions: 5 }]);
  });

  it("counts a deleted file's original lines after an update", () => {
    expect(
      fold([
        { path: "a", op: "update", additions: 3, deletions: 1 },
        { path: "a", op: "delete", additions: 0, deletions: 12 },
      ]),
    ).toEqual([{ path: "a", op: "delete", additions: 0, deletions: 10 }]);
  });
});
