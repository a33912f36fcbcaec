import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { insertRun, updateRun } from "@/db/queries/runs";
import { PatchworkError } from "@/lib/errors";
import { testDatabases } from "@/test/support/databases";
import { createApp } from "./apps";
import { commitRevision, getDraftRevision } from "./commit-revision";
import { starterTemplateFiles } from "./starter-template";

describe.each(testDatabases())("a run's commit on $name", (database) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function appWithRun(status: "running" | "failed") {
    const app = await createApp(handle.db, { name: "guard", files: starterTemplateFiles });
    const head = await getDraftRevision(handle.db, { appId: app.id });
    const run = await insertRun(handle.db, {
      appId: app.id,
      input: "edit",
      status: "running",
      baseRevisionId: head.id,
    });
    if (status === "failed") await updateRun(handle.db, { id: run.id, status: "failed" });
    return { app, head, run };
  }

  it("moves the draft head for a run that is still active", async () => {
    const { app, head, run } = await appWithRun("running");
    const { revision } = await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: head.id,
      changes: [{ type: "write", path: "src/guard.txt", content: "landed" }],
      source: "agent",
      runId: run.id,
    });
    expect((await getDraftRevision(handle.db, { appId: app.id })).id).toBe(revision.id);
  });

  it("refuses a run that was already ended and leaves the draft head where it was", async () => {
    const { app, head, run } = await appWithRun("failed");
    const attempt = commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: head.id,
      changes: [{ type: "write", path: "src/guard.txt", content: "late" }],
      source: "agent",
      runId: run.id,
    });
    await expect(attempt).rejects.toSatisfy(
      (error) =>
        PatchworkError.isInstance(error) &&
        error.code === "REVISION_CONFLICT" &&
        (error.details as { run_status: string }).run_status === "failed",
    );
    expect((await getDraftRevision(handle.db, { appId: app.id })).id).toBe(head.id);
  });
});
