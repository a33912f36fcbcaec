import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { blob, revision as revisionTable, tree } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { testDatabases } from "@/test/support/databases";
import {
  commitRevision,
  createApp,
  createCheckpoint,
  deleteApp,
  diffRevisions,
  listCheckpoints,
  listFiles,
  readAllFiles,
  readFile,
  restoreCheckpoint,
  restoreRevision,
  sha256Hex,
} from "./index";

const files = {
  "index.html": "<div id=root></div>\n",
  "src/App.tsx": "export default function App() {\n  return <h1>Hello</h1>;\n}\n",
  "src/main.tsx": "import App from './App';\n",
};

async function expectCode(promise: Promise<unknown>, code: string): Promise<PatchworkError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected ${code}, but it succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(PatchworkError.isInstance(error)).toBe(true);
  expect((error as PatchworkError).code).toBe(code);
  return error as PatchworkError;
}

describe.each(testDatabases())("workspace store on $name", (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  it("creates an app whose first revision holds the template files", async () => {
    const app = await createApp(handle.db, { name: "My Shop!", files });
    expect(app.slug).toMatch(/^my-shop-[0-9a-f]{6}$/);
    const listing = await listFiles(handle.db, { appId: app.id });
    expect(listing.revision_id).toBe(app.draftRevisionId);
    expect(listing.files.map((file) => file.path)).toEqual([
      "index.html",
      "src/App.tsx",
      "src/main.tsx",
    ]);
    const file = await readFile(handle.db, { appId: app.id, path: "src/App.tsx" });
    expect(file.content).toBe(files["src/App.tsx"]);
    expect(file.binary).toBe(false);
  });

  it("stores the same bytes once across apps and revisions", async () => {
    const unique = `shared content ${Math.random()}\n`;
    const first = await createApp(handle.db, { name: "a", files: { "a.txt": unique } });
    const second = await createApp(handle.db, { name: "b", files: { "nested/b.txt": unique } });
    await commitRevision(handle.db, {
      appId: second.id,
      baseRevisionId: second.draftRevisionId,
      changes: [{ type: "write", path: "copy.txt", content: unique }],
      source: "manual",
    });
    const rows = await handle.db
      .select()
      .from(blob)
      .where(eq(blob.hash, sha256Hex(unique)));
    expect(rows).toHaveLength(1);
    expect(new TextDecoder().decode(rows[0].bytes)).toBe(unique);
    expect((await readFile(handle.db, { appId: first.id, path: "a.txt" })).content).toBe(unique);
  });

  it("keeps revisions immutable: a new write leaves the old revision readable as it was", async () => {
    const app = await createApp(handle.db, { name: "immutable", files });
    const first = app.draftRevisionId!;
    const { revision, created } = await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: first,
      changes: [
        { type: "write", path: "src/App.tsx", content: "changed\n" },
        { type: "delete", path: "index.html" },
        { type: "rename", from: "src/main.tsx", to: "src/entry.tsx" },
      ],
      source: "manual",
      message: "edit",
    });
    expect(created).toBe(true);
    expect(revision.parentRevisionId).toBe(first);
    expect(
      (await readFile(handle.db, { appId: app.id, revisionId: first, path: "src/App.tsx" }))
        .content,
    ).toBe(files["src/App.tsx"]);
    expect((await listFiles(handle.db, { appId: app.id })).files.map((file) => file.path)).toEqual([
      "src/App.tsx",
      "src/entry.tsx",
    ]);
    expect((await listFiles(handle.db, { appId: app.id, revisionId: first })).files).toHaveLength(
      3,
    );
  });

  it("answers REVISION_CONFLICT for a stale base and stores nothing", async () => {
    const app = await createApp(handle.db, { name: "conflict", files });
    const base = app.draftRevisionId!;
    await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: base,
      changes: [{ type: "write", path: "a.txt", content: "one\n" }],
      source: "manual",
    });
    const before = await handle.db.$count(revisionTable, eq(revisionTable.appId, app.id));
    await expectCode(
      commitRevision(handle.db, {
        appId: app.id,
        baseRevisionId: base,
        changes: [{ type: "write", path: "a.txt", content: "two\n" }],
        source: "manual",
      }),
      "REVISION_CONFLICT",
    );
    expect(await handle.db.$count(revisionTable, eq(revisionTable.appId, app.id))).toBe(before);
    expect((await readFile(handle.db, { appId: app.id, path: "a.txt" })).content).toBe("one\n");
  });

  it("serialises concurrent commits on one base: exactly one wins", async () => {
    const app = await createApp(handle.db, { name: "race", files });
    const attempts = await Promise.allSettled(
      [1, 2, 3, 4].map((index) =>
        commitRevision(handle.db, {
          appId: app.id,
          baseRevisionId: app.draftRevisionId,
          changes: [{ type: "write", path: "race.txt", content: `${index}\n` }],
          source: "manual",
        }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(1);
    for (const attempt of attempts) {
      if (attempt.status === "rejected")
        expect((attempt.reason as PatchworkError).code).toBe("REVISION_CONFLICT");
    }
  });

  it("does not add a revision when nothing changed", async () => {
    const app = await createApp(handle.db, { name: "noop", files });
    const result = await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: app.draftRevisionId,
      changes: [{ type: "write", path: "src/App.tsx", content: files["src/App.tsx"] }],
      source: "manual",
    });
    expect(result.created).toBe(false);
    expect(result.revision.id).toBe(app.draftRevisionId);
  });

  it("restores a checkpoint as a new forward revision and keeps history", async () => {
    const app = await createApp(handle.db, { name: "restore", files });
    const checkpoint = await createCheckpoint(handle.db, {
      appId: app.id,
      kind: "manual",
      label: "start",
    });
    const edited = await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: app.draftRevisionId,
      changes: [{ type: "write", path: "src/App.tsx", content: "edited\n" }],
      source: "manual",
    });
    const { revision } = await restoreCheckpoint(handle.db, {
      appId: app.id,
      checkpointId: checkpoint.id,
    });
    expect(revision.source).toBe("restore");
    expect(revision.parentRevisionId).toBe(edited.revision.id);
    expect(revision.id).not.toBe(app.draftRevisionId);
    expect((await readFile(handle.db, { appId: app.id, path: "src/App.tsx" })).content).toBe(
      files["src/App.tsx"],
    );
    // The edited revision is still there and readable.
    expect(
      (
        await readFile(handle.db, {
          appId: app.id,
          revisionId: edited.revision.id,
          path: "src/App.tsx",
        })
      ).content,
    ).toBe("edited\n");
    expect((await listCheckpoints(handle.db, { appId: app.id })).map((item) => item.id)).toEqual([
      checkpoint.id,
    ]);
    const again = await restoreRevision(handle.db, {
      appId: app.id,
      revisionId: edited.revision.id,
    });
    expect(again.rootTreeHash).toBe(edited.revision.rootTreeHash);
  });

  it("stores only the directories on a changed path", async () => {
    const many: Record<string, string> = {};
    for (let directory = 0; directory < 10; directory += 1) {
      for (let file = 0; file < 10; file += 1)
        many[`src/d${directory}/f${file}.ts`] = `export const v = ${directory * 10 + file};\n`;
    }
    const app = await createApp(handle.db, { name: "trees", files: many });
    const treesBefore = await handle.db.$count(tree);
    await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: app.draftRevisionId,
      changes: [
        { type: "write", path: "src/d3/f3.ts", content: `export const v = "${Math.random()}";\n` },
      ],
      source: "manual",
    });
    // root, src and src/d3: three new trees, not eleven.
    expect((await handle.db.$count(tree)) - treesBefore).toBe(3);
  });

  it("diffs two revisions per file", async () => {
    const app = await createApp(handle.db, { name: "diff", files });
    const { revision } = await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: app.draftRevisionId,
      changes: [
        {
          type: "write",
          path: "src/App.tsx",
          content: "export default function App() {\n  return <h1>Bye</h1>;\n}\n",
        },
        { type: "write", path: "logo.png", content: new Uint8Array([137, 80, 78, 71, 0, 1, 2]) },
        { type: "delete", path: "index.html" },
      ],
      source: "manual",
    });
    const diff = await diffRevisions(handle.db, { appId: app.id, revisionId: revision.id });
    expect(diff.from_revision_id).toBe(app.draftRevisionId);
    expect(diff.files.map((file) => [file.path, file.status, file.binary])).toEqual([
      ["index.html", "deleted", false],
      ["logo.png", "added", true],
      ["src/App.tsx", "modified", false],
    ]);
    const appFile = diff.files.find((file) => file.path === "src/App.tsx")!;
    expect(appFile.patch).toContain("-  return <h1>Hello</h1>;");
    expect(appFile.patch).toContain("+  return <h1>Bye</h1>;");
    expect([appFile.additions, appFile.deletions]).toEqual([1, 1]);
    const reverse = await diffRevisions(handle.db, {
      appId: app.id,
      revisionId: app.draftRevisionId!,
      againstRevisionId: revision.id,
    });
    expect(reverse.files.find((file) => file.path === "index.html")!.status).toBe("added");
  });

  it("keeps binary files as blobs", async () => {
    const bytes = new Uint8Array([0, 255, 1, 254, 0]);
    const app = await createApp(handle.db, { name: "binary", files: { "image.bin": bytes } });
    const file = await readFile(handle.db, { appId: app.id, path: "image.bin" });
    expect(file.binary).toBe(true);
    expect(file.content).toBeNull();
    expect([...file.bytes]).toEqual([...bytes]);
    const all = await readAllFiles(handle.db, { appId: app.id });
    expect([...all.files.get("image.bin")!]).toEqual([...bytes]);
  });

  it("refuses files over 1 MiB and apps over 5,000 files with PAYLOAD_TOO_LARGE", async () => {
    const app = await createApp(handle.db, { name: "limits", files });
    const error = await expectCode(
      commitRevision(handle.db, {
        appId: app.id,
        baseRevisionId: app.draftRevisionId,
        changes: [{ type: "write", path: "big.txt", content: "x".repeat(1024 * 1024 + 1) }],
        source: "manual",
      }),
      "PAYLOAD_TOO_LARGE",
    );
    expect(error.status).toBe(413);
    const tooMany = Array.from({ length: 5000 }, (_, index) => ({
      type: "write" as const,
      path: `many/${Math.floor(index / 100)}/f${index}.txt`,
      content: `${index}`,
    }));
    await expectCode(
      commitRevision(handle.db, {
        appId: app.id,
        baseRevisionId: app.draftRevisionId,
        changes: tooMany,
        source: "manual",
      }),
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("refuses paths that could leave the workspace", async () => {
    const app = await createApp(handle.db, { name: "paths", files });
    for (const path of [
      "../etc/passwd",
      "/etc/passwd",
      "src/../../x",
      "a\\b",
      "a\u0000b",
      "C:/x",
      "",
      "./",
      " leading/space.ts",
      ".git/config",
      "evil\u202egnp.ts",
      "\uff0e\uff0e\uff0fx",
      "x".repeat(513),
    ]) {
      await expectCode(
        commitRevision(handle.db, {
          appId: app.id,
          baseRevisionId: app.draftRevisionId,
          changes: [{ type: "write", path, content: "x" }],
          source: "manual",
        }),
        "VALIDATION_FAILED",
      );
    }
  });

  it("refuses deleting a missing file and writing a file over a directory", async () => {
    const app = await createApp(handle.db, { name: "missing", files });
    const base = { appId: app.id, baseRevisionId: app.draftRevisionId, source: "manual" as const };
    await expectCode(
      commitRevision(handle.db, { ...base, changes: [{ type: "delete", path: "nope.txt" }] }),
      "NOT_FOUND",
    );
    await expectCode(
      commitRevision(handle.db, {
        ...base,
        changes: [{ type: "write", path: "src", content: "x" }],
      }),
      "VALIDATION_FAILED",
    );
    await expectCode(
      commitRevision(handle.db, {
        ...base,
        changes: [{ type: "write", path: "index.html/inner", content: "x" }],
      }),
      "VALIDATION_FAILED",
    );
  });

  it("deletes an app with its history", async () => {
    const app = await createApp(handle.db, { name: "gone", files });
    await deleteApp(handle.db, { appId: app.id });
    await expectCode(listFiles(handle.db, { appId: app.id }), "NOT_FOUND");
    const count = await handle.db.$count(revisionTable, eq(revisionTable.appId, app.id));
    expect(count).toBe(0);
  });
});
