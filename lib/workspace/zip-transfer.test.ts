import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { PatchworkError } from "@/lib/errors";
import { testDatabases } from "@/test/support/databases";
import { createApp, exportZip, importZip, listFiles, readAllFiles, workspaceLimits } from "./index";

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => new Error("it succeeded"),
    (caught: unknown) => caught,
  );
  return PatchworkError.isInstance(error) ? error.code : String(error);
}

describe.each(testDatabases())("zip export and import on $name", (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  it("round-trips a draft byte for byte, as an import revision", async () => {
    const image = new Uint8Array(256).map((_, index) => index);
    const original = await createApp(handle.db, {
      name: "zip",
      files: { "index.html": "<div></div>\n", "src/café.ts": "x\n", "public/i.png": image },
    });
    const archive = await exportZip(handle.db, { appId: original.id });
    const imported = await importZip(handle.db, { name: "copy", archive });
    const [before, after] = await Promise.all([
      readAllFiles(handle.db, { appId: original.id }),
      readAllFiles(handle.db, { appId: imported.id }),
    ]);
    expect([...after.files.keys()].sort()).toEqual([...before.files.keys()].sort());
    for (const [path, bytes] of before.files)
      expect(Buffer.from(after.files.get(path)!).equals(Buffer.from(bytes))).toBe(true);
    expect(after.revision.source).toBe("import");
  });

  it("strips one shared top folder and refuses bad names, bombs and non-zips", async () => {
    const nested = zipSync({ "project/a.txt": new TextEncoder().encode("a") });
    const app = await importZip(handle.db, { name: "nested", archive: nested });
    expect((await listFiles(handle.db, { appId: app.id })).files.map((file) => file.path)).toEqual([
      "a.txt",
    ]);
    const gitConfig = zipSync({ ".git/config": new Uint8Array([1]), "a.txt": new Uint8Array([1]) });
    expect(await codeOf(importZip(handle.db, { name: "git", archive: gitConfig }))).toBe(
      "VALIDATION_FAILED",
    );
    const bomb = zipSync({ "zeros.txt": new Uint8Array(workspaceLimits.maxFileBytes + 1) });
    expect(bomb.byteLength).toBeLessThan(10_000);
    expect(await codeOf(importZip(handle.db, { name: "bomb", archive: bomb }))).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    expect(
      await codeOf(importZip(handle.db, { name: "junk", archive: new Uint8Array([1, 2, 3]) })),
    ).toBe("VALIDATION_FAILED");
  });
});
