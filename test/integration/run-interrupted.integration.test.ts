import { afterAll, describe, expect, it } from "vitest";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { type ModelServer, modelServerEnvironment, startModelServer } from "@/test/model-server";
import {
  createApp,
  eventsOfType,
  expectGaplessRun,
  getRun,
  listRevisions,
  readDraftFile,
  runTargets,
  startRun,
} from "@/test/support/coding-agent-runs";
import {
  api,
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

describe.each(runTargets())("a server killed mid-run on $name", (target) => {
  const servers: PatchworkServer[] = [];
  let modelServer: ModelServer | undefined;

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await modelServer?.close();
  });

  it("fails the run with CODING_AGENT_RUN_INTERRUPTED after a restart and keeps the pre-run draft", async () => {
    modelServer = await startModelServer({ port: 0 });
    // Same data dir (PGlite) or database (Postgres) for both lives of the server.
    const env = {
      ...modelServerEnvironment(modelServer.url),
      // On Postgres the dead server's lease must run out before anyone may end its run.
      PATCHWORK_RUN_LEASE_S: "5",
      ...(target.name === "pglite"
        ? { PATCHWORK_DATA_DIR: temporaryDataDir("interrupted") }
        : target.env),
    };
    const first = await startPatchworkServer({ env });
    servers.push(first);
    const app = await createApp(first, "Killed mid-run");
    const run = await startRun(first, app.id, {
      input: "Stream slowly",
      model_id: "compatible:slow-stream",
    });
    let textSoFar = "";
    const beforeKill = await collectRun(first, app.id, run.id, {
      stopAfter: (frame) => {
        if (frame.data.type === "assistant.delta") textSoFar += String(frame.data.payload.text);
        return textSoFar.includes("Chunk 10 of 60.");
      },
    });
    expect(beforeKill.endedByServer).toBe(false);
    await first.kill();

    const restarted = await startPatchworkServer({ env });
    servers.push(restarted);
    // Postgres leaves it to the sweeper once the lease (5 s) ran out; the stream waits either way.
    const replay = await collectRun(restarted, app.id, run.id, { timeoutMs: 40_000 });
    expect(replay.endedByServer).toBe(true);
    const { events } = replay;
    expectGaplessRun(events, run);
    expect(events.slice(0, beforeKill.events.length)).toEqual(beforeKill.events);
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      payload: { code: "CODING_AGENT_RUN_INTERRUPTED", message: expect.any(String) },
    });
    expect(
      events.filter((event) => event.type.startsWith("run.") && event.type !== "run.accepted"),
    ).toHaveLength(1);
    expect(eventsOfType(events, "revision.created")).toEqual([]);

    expect(await getRun(restarted, app.id, run.id)).toMatchObject({
      status: "failed",
      error_code: "CODING_AGENT_RUN_INTERRUPTED",
      result_revision_id: null,
    });
    const history = await listRevisions(restarted, app.id);
    expect(history.draft_revision_id).toBe(app.draft_revision_id);
    expect(history.revisions.map((revision) => revision.source)).toEqual(["template"]);
    expect(await readDraftFile(restarted, app.id, "src/App.tsx")).toBe(
      starterTemplateFiles["src/App.tsx"],
    );

    // The app is usable again: a new run is accepted and completes.
    const next = await startRun(restarted, app.id, {
      input: "Try again",
      model_id: "compatible:happy-path",
    });
    const nextStream = await collectRun(restarted, app.id, next.id);
    expect(nextStream.events.at(-1)?.type).toBe("run.completed");
    expect((await api(restarted, `/api/apps/${app.id}/files/src/App.tsx`)).body.content).not.toBe(
      starterTemplateFiles["src/App.tsx"],
    );
  });
});
