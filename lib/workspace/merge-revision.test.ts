import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { testDatabases } from "@/test/support/databases";
import {
  commitRevision,
  createApp,
  getDraftRevision,
  landRevision,
  listFiles,
  mergeText,
  readFile,
} from "./index";

const original = ["one", "two", "three", "four", "five", "six", "seven", ""].join("\n");

describe("mergeText", () => {
  it("merges edits to different lines", () => {
    const ours = original.replace("two", "TWO");
    const theirs = original.replace("six", "SIX");
    expect(mergeText(ours, original, theirs)).toBe(
      original.replace("two", "TWO").replace("six", "SIX"),
    );
  });

  it("answers null when both sides changed the same line differently", () => {
    expect(
      mergeText(original.replace("four", "4"), original, original.replace("four", "IV")),
    ).toBeNull();
  });

  it("takes an identical edit made on both sides once", () => {
    const both = original.replace("four", "4");
    expect(mergeText(both, original, both)).toBe(both);
  });
});

describe.each(testDatabases())("landing a run's changes on $name", (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  async function appWithPersonSave(personContent: string, extra: Record<string, string> = {}) {
    const app = await createApp(handle.db, {
      name: "merge",
      files: { "src/App.tsx": original, "other.txt": "other\n", ...extra },
    });
    const base = app.draftRevisionId!;
    const saved = await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: base,
      changes: [{ type: "write", path: "src/App.tsx", content: personContent }],
      source: "manual",
    });
    return { appId: app.id, base, personRevision: saved.revision.id };
  }

  it("lands on the base directly when the draft has not moved", async () => {
    const app = await createApp(handle.db, { name: "plain", files: { "a.txt": "a\n" } });
    const landed = await landRevision(handle.db, {
      appId: app.id,
      baseRevisionId: app.draftRevisionId!,
      changes: [{ type: "write", path: "a.txt", content: "b\n" }],
      source: "agent",
    });
    expect(landed.conflicts).toEqual([]);
    expect(landed.draftRevision?.parentRevisionId).toBe(app.draftRevisionId);
  });

  it("merges disjoint edits of one file line by line, after the person's save", async () => {
    const { appId, personRevision } = await appWithPersonSave(original.replace("six", "SIX"));
    const base = (await getDraftRevision(handle.db, { appId })).parentRevisionId!;
    const landed = await landRevision(handle.db, {
      appId,
      baseRevisionId: base,
      changes: [
        { type: "write", path: "src/App.tsx", content: original.replace("two", "TWO") },
        { type: "write", path: "new.txt", content: "new\n" },
      ],
      source: "agent",
      message: "Agent: edit",
    });
    expect(landed).toMatchObject({
      conflicts: [],
      merged: ["src/App.tsx"],
      separateRevision: null,
    });
    expect(landed.draftRevision?.parentRevisionId).toBe(personRevision);
    const draft = await readFile(handle.db, { appId, path: "src/App.tsx" });
    expect(draft.content).toBe(original.replace("two", "TWO").replace("six", "SIX"));
    expect((await readFile(handle.db, { appId, path: "new.txt" })).content).toBe("new\n");
  });

  it("keeps both when the run changed other files than the person", async () => {
    const { appId, base } = await appWithPersonSave(original.replace("one", "1"));
    const landed = await landRevision(handle.db, {
      appId,
      baseRevisionId: base,
      changes: [
        { type: "write", path: "other.txt", content: "changed by the run\n" },
        { type: "write", path: "added.txt", content: "added\n" },
      ],
      source: "agent",
    });
    expect(landed.conflicts).toEqual([]);
    expect((await readFile(handle.db, { appId, path: "src/App.tsx" })).content).toBe(
      original.replace("one", "1"),
    );
    expect((await readFile(handle.db, { appId, path: "other.txt" })).content).toBe(
      "changed by the run\n",
    );
  });

  it("lands overlapping edits as a separate revision on the base and keeps the person's file", async () => {
    const person = original.replace("four", "IV");
    const { appId, base, personRevision } = await appWithPersonSave(person);
    const run = original.replace("four", "4");
    const landed = await landRevision(handle.db, {
      appId,
      baseRevisionId: base,
      changes: [
        { type: "write", path: "src/App.tsx", content: run },
        { type: "write", path: "other.txt", content: "run edit\n" },
      ],
      source: "agent",
      message: "Agent: conflict",
    });
    expect(landed.conflicts).toEqual(["src/App.tsx"]);
    // The run's whole work, on its own base: openable as a diff and restorable.
    expect(landed.separateRevision?.parentRevisionId).toBe(base);
    const separate = landed.separateRevision!.id;
    expect(
      (await readFile(handle.db, { appId, revisionId: separate, path: "src/App.tsx" })).content,
    ).toBe(run);
    expect(
      (await readFile(handle.db, { appId, revisionId: separate, path: "other.txt" })).content,
    ).toBe("run edit\n");
    // The draft keeps the person's file and takes the run's clean edits.
    expect(landed.draftRevision?.parentRevisionId).toBe(personRevision);
    expect((await readFile(handle.db, { appId, path: "src/App.tsx" })).content).toBe(person);
    expect((await readFile(handle.db, { appId, path: "other.txt" })).content).toBe("run edit\n");
  });

  it("treats a run deleting a file the person edited as a conflict, keeping the file", async () => {
    const person = original.replace("one", "1");
    const { appId, base, personRevision } = await appWithPersonSave(person);
    const landed = await landRevision(handle.db, {
      appId,
      baseRevisionId: base,
      changes: [{ type: "delete", path: "src/App.tsx" }],
      source: "agent",
    });
    expect(landed.conflicts).toEqual(["src/App.tsx"]);
    expect(landed.draftRevision).toBeNull();
    expect((await getDraftRevision(handle.db, { appId })).id).toBe(personRevision);
    const separateFiles = await listFiles(handle.db, {
      appId,
      revisionId: landed.separateRevision!.id,
    });
    expect(separateFiles.files.map((file) => file.path)).toEqual(["other.txt"]);
  });
});
