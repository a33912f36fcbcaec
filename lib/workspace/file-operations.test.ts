import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { PatchworkError } from "@/lib/errors";
import { testDatabases } from "@/test/support/databases";
import { applyFileOperations, createApp, listFiles, readAllFiles } from "./index";

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => new Error("it succeeded"),
    (caught: unknown) => caught,
  );
  return PatchworkError.isInstance(error) ? error.code : String(error);
}

describe.each(testDatabases())("file operations on $name", (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  const seed = { "src/App.tsx": "app\n", "src/parts/a.ts": "a\n", "src/parts/b.ts": "b\n" };

  it("creates, uploads, moves a folder and deletes, each batch as one manual revision", async () => {
    const app = await createApp(handle.db, { name: "ops", files: seed });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128, 7]);
    const first = await applyFileOperations(handle.db, {
      appId: app.id,
      baseRevisionId: app.draftRevisionId!,
      operations: [
        { type: "create_file", path: "src/new.ts", content: "new\n" },
        { type: "create_folder", path: "public/empty" },
        { type: "upload", path: "public/logo.png", bytes: png },
        { type: "rename", from: "src/parts", to: "src/pieces" },
        { type: "delete", path: "src/App.tsx" },
      ],
    });
    expect(first.revision).toMatchObject({
      source: "manual",
      parentRevisionId: app.draftRevisionId,
    });
    const { files } = await readAllFiles(handle.db, { appId: app.id });
    expect([...files.keys()].sort()).toEqual([
      "public/empty/.gitkeep",
      "public/logo.png",
      "src/new.ts",
      "src/pieces/a.ts",
      "src/pieces/b.ts",
    ]);
    expect(Buffer.from(files.get("public/logo.png")!).equals(Buffer.from(png))).toBe(true);

    const second = await applyFileOperations(handle.db, {
      appId: app.id,
      baseRevisionId: first.revision.id,
      operations: [{ type: "delete", path: "src/pieces" }],
    });
    const listing = await listFiles(handle.db, { appId: app.id, revisionId: second.revision.id });
    expect(listing.files.map((file) => file.path)).toEqual([
      "public/empty/.gitkeep",
      "public/logo.png",
      "src/new.ts",
    ]);
  });

  it("refuses a stale base, existing targets, missing sources and bad names", async () => {
    const app = await createApp(handle.db, { name: "ops-errors", files: seed });
    const base = app.draftRevisionId!;
    const moved = await applyFileOperations(handle.db, {
      appId: app.id,
      baseRevisionId: base,
      operations: [{ type: "create_file", path: "x.ts" }],
    });
    const run = (
      operations: Parameters<typeof applyFileOperations>[1]["operations"],
      at = moved.revision.id,
    ) => codeOf(applyFileOperations(handle.db, { appId: app.id, baseRevisionId: at, operations }));
    expect(await run([{ type: "create_file", path: "y.ts" }], base)).toBe("REVISION_CONFLICT");
    expect(await run([{ type: "create_file", path: "src/App.tsx" }])).toBe("VALIDATION_FAILED");
    expect(await run([{ type: "rename", from: "src/parts", to: "src/App.tsx" }])).toBe(
      "VALIDATION_FAILED",
    );
    expect(await run([{ type: "rename", from: "src", to: "src/inner" }])).toBe("VALIDATION_FAILED");
    expect(await run([{ type: "delete", path: "nope" }])).toBe("NOT_FOUND");
    expect(await run([{ type: "create_folder", path: ".git/hooks" }])).toBe("VALIDATION_FAILED");
    expect(await run([{ type: "rename", from: "x.ts", to: " y.ts" }])).toBe("VALIDATION_FAILED");
  });
});
