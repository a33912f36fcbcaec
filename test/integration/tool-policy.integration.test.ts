import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, modelServerEnvironment, startModelServer } from "@/test/model-server";
import { headingPatch, patchedHeading, starterAppPath } from "@/test/model-server/starter-patches";
import {
  createApp,
  eventsOfType,
  readDraftFile,
  runTargets,
  startRun,
} from "@/test/support/coding-agent-runs";
import { api, type PatchworkServer, startPatchworkServer } from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

// Names the probe saved through PUT that the agent could never patch, and the reverse.
const refusedNames = [".git/config", "src/ leading.ts", "x\u202etxt.ts", "\uff0e\uff0e\uff0fx.ts"];

const badPathScenario = {
  name: "bad-path",
  steps: [
    {
      tool_calls: [
        {
          name: "apply_patch",
          arguments: {
            patch: "*** Begin Patch\n*** Add File: src/ notes.md\n+hi\n*** End Patch\n",
          },
        },
      ],
    },
    { tool_calls: [{ name: "apply_patch", arguments: { patch: headingPatch() } }] },
    { text: ["Changed the heading; that file name was refused."] },
  ],
};

describe.each(runTargets())("one path policy on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;
  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0, scenarios: { "bad-path": badPathScenario } });
    server = await startPatchworkServer({
      env: { ...modelServerEnvironment(modelServer.url, ["bad-path"]), ...target.env },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  it("refuses through PUT the names the agent may not patch", async () => {
    const app = await createApp(server, "policy");
    for (const name of refusedNames) {
      const response = await api(
        server,
        `/api/apps/${app.id}/files/${name.split("/").map(encodeURIComponent).join("/")}`,
        {
          method: "PUT",
          body: { content: "x", base_revision_id: app.draft_revision_id },
          headers: { origin: server.url },
        },
      );
      expect(response.status, name).toBe(400);
      expect(response.body.error.code, name).toBe("VALIDATION_FAILED");
    }
  });

  it("tells the model about a refused path at the tool and still lands the run's other edits", async () => {
    const app = await createApp(server, "policy run");
    const run = await startRun(server, app.id, { input: "edit", model_id: "compatible:bad-path" });
    const { events } = await collectRun(server, app.id, run.id);
    expect(eventsOfType(events, "tool.failed").map((event) => event.payload.code)).toEqual([
      "PATCH_PATH_POLICY_VIOLATION",
    ]);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(eventsOfType(events, "revision.created")).toHaveLength(1);
    expect(await readDraftFile(server, app.id, starterAppPath)).toContain(patchedHeading);
  });
});
