import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterHeading } from "@/lib/workspace/starter-template";
import {
  type ModelServer,
  modelServerEnvironment,
  patchedHeading,
  scenarioNames,
  startModelServer,
} from "@/test/model-server";
import type { Scenario } from "@/test/model-server/scenario";
import {
  headingPatch,
  starterAppPath,
  starterAppSource,
} from "@/test/model-server/starter-patches";
import { agentTools } from "@/test/model-server/tool-names";
import {
  createApp,
  eventsOfType,
  expectErrorEnvelope,
  listRevisions,
  readDraftFile,
  runTargets,
  startRun,
} from "@/test/support/coding-agent-runs";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

const summary = { text: ["Done."], usage: { prompt_tokens: 100, completion_tokens: 5 } };

/** A patch to a name the path policy refuses, then a good patch: the good one must land. */
const badPathScenario: Scenario = {
  name: "bad-path",
  description: "Adds a file under a segment starting with a space, then patches the heading.",
  steps: [
    {
      tool_calls: [
        {
          name: agentTools.applyPatch,
          arguments: {
            patch: "*** Begin Patch\n*** Add File: notes/ draft.md\n+x\n*** End Patch\n",
          },
        },
      ],
    },
    { tool_calls: [{ name: agentTools.applyPatch, arguments: { patch: headingPatch() } }] },
    summary,
  ],
};

/** Patches the heading after a pause, so the person can save while the run works. */
const slowEditScenario: Scenario = {
  name: "slow-edit",
  description: "Waits 1.5 s, then patches the heading.",
  steps: [
    {
      delay_ms_before: 1500,
      tool_calls: [{ name: agentTools.applyPatch, arguments: { patch: headingPatch() } }],
    },
    summary,
  ],
};

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

describe.each(runTargets())("workspace store over HTTP on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;
  const origin = () => ({ origin: server.url });

  beforeAll(async () => {
    modelServer = await startModelServer({
      port: 0,
      scenarios: { "bad-path": badPathScenario, "slow-edit": slowEditScenario },
    });
    server = await startPatchworkServer({
      env: {
        ...modelServerEnvironment(modelServer.url, [...scenarioNames, "bad-path", "slow-edit"]),
        ...target.env,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  async function save(appId: string, path: string, content: string, base: string) {
    return api(server, `/api/apps/${appId}/files/${encodePath(path)}`, {
      method: "PUT",
      body: { content, base_revision_id: base },
      headers: origin(),
    });
  }

  it("refuses with VALIDATION_FAILED every name the patch engine would refuse", async () => {
    const app = await createApp(server, "Names");
    for (const path of [
      " leading/space.ts",
      "src/ leading.ts",
      ".git/config",
      "src/evil\u202egnp.ts",
      "\uff0e\uff0e\uff0fx.ts",
      "zero\u200bwidth.ts",
      `${"a".repeat(256)}.ts`,
      `${"dir/".repeat(129)}x`,
    ]) {
      expectErrorEnvelope(
        await save(app.id, path, "x", app.draft_revision_id),
        400,
        "VALIDATION_FAILED",
      );
    }
    const listing = await api(server, `/api/apps/${app.id}/files`);
    expect(listing.status).toBe(200);
    expect(
      (listing.body.files as { path: string }[]).filter((file) => !/^[\w./-]+$/.test(file.path)),
    ).toEqual([]);
  });

  it("keeps one file for NFC and NFD twins", async () => {
    const app = await createApp(server, "Twins");
    const composed = await save(app.id, "caf\u00e9.txt", "one\n", app.draft_revision_id);
    expect(composed.status).toBe(201);
    const decomposed = await save(app.id, "cafe\u0301.txt", "two\n", composed.body.revision.id);
    expect(decomposed.status).toBe(201);
    const listing = await api(server, `/api/apps/${app.id}/files`);
    const names = (listing.body.files as { path: string }[])
      .map((file) => file.path)
      .filter((path) => path.startsWith("caf"));
    expect(names).toEqual(["caf\u00e9.txt"]);
    expect(await readDraftFile(server, app.id, encodePath("caf\u00e9.txt"))).toBe("two\n");
  });

  it("answers a patch to a refused path as a tool failure and lands the run's other edits", async () => {
    const app = await createApp(server, "Bad path run");
    const run = await startRun(server, app.id, {
      input: "Add notes",
      model_id: "compatible:bad-path",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    const failed = eventsOfType(events, "tool.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0].payload).toMatchObject({ code: "PATCH_PATH_POLICY_VIOLATION" });
    expect(eventsOfType(events, "tool.completed")).toHaveLength(1);
    expect(await readDraftFile(server, app.id, starterAppPath)).toContain(patchedHeading);
  });

  it("merges a run with the person's save of the same file made while it worked", async () => {
    const app = await createApp(server, "Merge");
    const run = await startRun(server, app.id, {
      input: "Heading",
      model_id: "compatible:slow-edit",
    });
    const personSource = `// The person's note\n${starterAppSource()}`;
    expect((await save(app.id, starterAppPath, personSource, run.base_revision_id)).status).toBe(
      201,
    );
    const { events } = await collectRun(server, app.id, run.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    const merged = await readDraftFile(server, app.id, starterAppPath);
    expect(merged.startsWith("// The person's note\n")).toBe(true);
    expect(merged).toContain(patchedHeading);
    expect(merged).not.toContain(starterHeading);
    expect(eventsOfType(events, "notice").map((event) => event.payload.kind)).toEqual(["merged"]);
  });

  it("lands overlapping edits as the run's own revision and keeps the person's file in the draft", async () => {
    const app = await createApp(server, "Conflict");
    const run = await startRun(server, app.id, {
      input: "Heading",
      model_id: "compatible:slow-edit",
    });
    const personSource = starterAppSource().replace(starterHeading, "The person's heading");
    const saved = await save(app.id, starterAppPath, personSource, run.base_revision_id);
    expect(saved.status).toBe(201);
    const { events } = await collectRun(server, app.id, run.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    const notice = eventsOfType(events, "notice").find(
      (event) => event.payload.kind === "merge_conflict",
    );
    expect(notice?.payload).toMatchObject({
      message: expect.stringContaining(starterAppPath),
      data: { files: [starterAppPath], draft_revision_id: null },
    });
    const runRevisionId = (notice!.payload.data as { run_revision_id: string }).run_revision_id;
    expect(await readDraftFile(server, app.id, starterAppPath)).toBe(personSource);
    const history = await listRevisions(server, app.id);
    expect(history.draft_revision_id).toBe(saved.body.revision.id);
    expect(history.revisions.find((revision) => revision.id === runRevisionId)).toMatchObject({
      source: "agent",
      run_id: run.id,
      parent_revision_id: run.base_revision_id,
    });
    const runFile = await api(
      server,
      `/api/apps/${app.id}/files/${starterAppPath}?revision=${runRevisionId}`,
    );
    expect(runFile.body.content).toContain(patchedHeading);
    const final = await api(server, `/api/apps/${app.id}/coding-agent/runs/${run.id}`);
    expect(final.body.run.result_revision_id).toBe(runRevisionId);
  });
});
