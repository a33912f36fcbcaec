import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { getAppById } from "@/db/queries/apps";
import { getRunById, insertRun, insertRunEvent, listEventsAfter } from "@/db/queries/runs";
import { getRunEventBus } from "@/lib/agent/events/event-bus";
import { RunEventWriter } from "@/lib/agent/events/run-event-writer";
import { createApp, landRevision } from "@/lib/workspace";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { testDatabases } from "@/test/support/databases";
import { recoverInterruptedRuns } from "./run-recovery";

const owner = "worker-a/4242/abcdef12";
const terminalTypes = ["run.completed", "run.failed", "run.cancelled"];

/**
 * PRODUCT §10: a run's revision and its end are one transaction that refuses a run no longer
 * active, so a sweeper and the executing worker racing to end it leave exactly one outcome.
 */
describe.each(testDatabases())("a run's commit racing the sweeper on $name", (database) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** A run executing on another process ("worker-a") whose lease already ran out. */
  async function runWithExpiredLease(name: string) {
    const app = await createApp(handle.db, { name, files: starterTemplateFiles });
    const run = await insertRun(handle.db, {
      appId: app.id,
      status: "running",
      startedAt: new Date(),
      input: "Make the heading say Hello",
      requestedModelId: "auto",
      resolvedModelId: "compatible:happy-path",
      baseRevisionId: app.draftRevisionId,
      leaseOwner: owner,
      leaseExpiresAt: new Date(Date.now() - 1_000),
    });
    await insertRunEvent(handle.db, {
      runId: run.id,
      seq: 1,
      type: "run.accepted",
      payload: {
        requested_model_id: "auto",
        resolved_model_id: "compatible:happy-path",
        engine: "native",
        base_revision_id: app.draftRevisionId,
      },
    });
    return { app, run };
  }

  /** What the worker does at the end of a run: land the change and end the run, together. */
  async function finishWithCommit(
    run: Awaited<ReturnType<typeof runWithExpiredLease>>["run"],
    whileCommitting: () => void = () => {},
  ): Promise<boolean> {
    const writer = new RunEventWriter(
      handle,
      await getRunEventBus(handle),
      { id: run.id, appId: run.appId },
      1,
    );
    const usage = {
      input_tokens: 1,
      output_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      total_cost_usd: null,
    };
    return writer.finish(
      "run.completed",
      { result_revision_id: null, usage },
      { status: "completed", usage },
      {
        guard: { leaseOwner: owner },
        inside: async (transaction, stage) => {
          const landed = await landRevision(transaction, {
            appId: run.appId,
            baseRevisionId: run.baseRevisionId!,
            changes: [{ type: "write", path: "src/App.tsx", content: "export default 1;\n" }],
            source: "agent",
            runId: run.id,
          });
          whileCommitting();
          // Long enough for the sweeper's statements to reach the database and wait there.
          await new Promise((resolve) => setTimeout(resolve, 150));
          const revision = landed.draftRevision!;
          stage.add("revision.created", {
            revision_id: revision.id,
            parent_revision_id: revision.parentRevisionId,
            files_changed: [],
            additions: 1,
            deletions: 0,
          });
          return {
            payload: { result_revision_id: revision.id },
            runUpdate: { resultRevisionId: revision.id },
          };
        },
      },
    );
  }

  async function terminalEvents(runId: string) {
    const events = await listEventsAfter(handle.db, { runId, seq: 0 });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    return events.filter((event) => terminalTypes.includes(event.type));
  }

  it("lands nothing when the sweeper ended the run first", async () => {
    const { app, run } = await runWithExpiredLease("swept first");
    expect(await recoverInterruptedRuns(handle)).toContain(run.id);
    await expect(finishWithCommit(run)).rejects.toMatchObject({ code: "REVISION_CONFLICT" });
    expect((await getAppById(handle.db, { id: app.id }))?.draftRevisionId).toBe(
      app.draftRevisionId,
    );
    expect(await getRunById(handle.db, { id: run.id })).toMatchObject({
      status: "failed",
      errorCode: "CODING_AGENT_RUN_INTERRUPTED",
      resultRevisionId: null,
    });
    expect((await terminalEvents(run.id)).map((event) => event.type)).toEqual(["run.failed"]);
  });

  it("leaves the sweeper nothing to do when it arrives while the commit is in flight", async () => {
    const { app, run } = await runWithExpiredLease("swept during the commit");
    let sweep: Promise<string[]> | null = null;
    const finished = await finishWithCommit(run, () => {
      sweep = recoverInterruptedRuns(handle);
    });
    expect(finished).toBe(true);
    expect(sweep).not.toBeNull();
    expect(await sweep!).not.toContain(run.id);
    const stored = await getRunById(handle.db, { id: run.id });
    expect(stored).toMatchObject({ status: "completed", errorCode: null });
    expect((await getAppById(handle.db, { id: app.id }))?.draftRevisionId).toBe(
      stored?.resultRevisionId,
    );
    expect((await terminalEvents(run.id)).map((event) => event.type)).toEqual(["run.completed"]);
  });
});
