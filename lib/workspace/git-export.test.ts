import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { testDatabases } from "@/test/support/databases";
import { commitRevision, createApp, exportGitRepository } from "./index";

describe.each(testDatabases())("git export on $name", (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  it("writes one commit per revision that the system git reads", async () => {
    const app = await createApp(handle.db, { name: "Git me", files: { "a.txt": "one\n" } });
    let head = app.draftRevisionId!;
    for (const [index, content] of ["two\n", "three\n"].entries()) {
      const { revision } = await commitRevision(handle.db, {
        appId: app.id,
        baseRevisionId: head,
        changes: [
          { type: "write", path: "a.txt", content },
          { type: "write", path: `dir/f${index}.bin`, content: new Uint8Array([0, index, 255]) },
        ],
        source: "manual",
        message: `Edit ${index + 1}`,
      });
      head = revision.id;
    }
    const { archive, name } = await exportGitRepository(handle.db, { appId: app.id });
    const directory = mkdtempSync(path.join(os.tmpdir(), "patchwork-git-test-"));
    try {
      for (const [file, bytes] of Object.entries(unzipSync(archive))) {
        mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
        writeFileSync(path.join(directory, file), bytes);
      }
      const gitDirectory = path.join(directory, name);
      const git = (...args: string[]) =>
        execFileSync("git", ["--git-dir", gitDirectory, ...args], { encoding: "utf8" });
      const log = git("log", "--format=%an|%s", "main").trim().split("\n");
      expect(log).toEqual([
        "Patchwork|Edit 2",
        "Patchwork|Edit 1",
        "Patchwork|Created from the starter template",
      ]);
      expect(git("show", "main:a.txt")).toBe("three\n");
      expect(git("show", "main~2:a.txt")).toBe("one\n");
      expect(git("fsck", "--strict").trim()).toBe("");
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
