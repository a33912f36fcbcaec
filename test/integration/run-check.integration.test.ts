import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  headingPatch,
  type ModelServer,
  modelServerEnvironment,
  patchedHeading,
  type Scenario,
  startModelServer,
} from "@/test/model-server";
import { headingLineNumber, starterAppSource } from "@/test/model-server/starter-patches";
import {
  createApp,
  eventsOfType,
  expectGaplessRun,
  readDraftFile,
  runTargets,
  startRun,
} from "@/test/support/coding-agent-runs";
import {
  type PatchworkServer,
  startPatchworkServer,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { collectRun } from "@/test/support/sse-client";

// The heading becomes an expression that throws while rendering: it builds and type-checks, and
// only a browser sees the app is broken.
const crash = '{(() => { throw new Error("The heading could not be read"); })()}';
const brokenSource = (() => {
  const source = starterAppSource();
  const lines = source.split("\n");
  const index = headingLineNumber(source) - 1;
  lines[index] = lines[index].replace("Launch something people love", crash);
  return lines.join("\n");
})();
const breakHeading = headingPatch({ to: crash });
const fixHeading = headingPatch({ source: brokenSource, from: crash, to: patchedHeading });

const toldCheckFailed = (text: string) => text.includes("does not work yet");

const scenarios: Record<string, Scenario> = {
  // Breaks the app, is told by the end-of-run check, then fixes it.
  "breaks-then-fixes": {
    name: "breaks-then-fixes",
    steps: [
      (context) => ({
        tool_calls: [
          {
            name: "apply_patch",
            arguments: { patch: toldCheckFailed(context.lastUserText) ? fixHeading : breakHeading },
          },
        ],
      }),
      (context) => ({
        text: [toldCheckFailed(context.lastUserText) ? "Fixed the crash." : "Changed the heading."],
      }),
    ],
  },
  // Breaks the app and never manages to fix it.
  "always-broken": {
    name: "always-broken",
    steps: [
      (context) =>
        toldCheckFailed(context.lastUserText)
          ? { text: ["I could not find the cause."] }
          : { tool_calls: [{ name: "apply_patch", arguments: { patch: breakHeading } }] },
      { text: ["Changed the heading."] },
    ],
  },
};

describe.each(runTargets())("the check every run ends with, on $name", (target) => {
  let modelServer: ModelServer;
  let server: PatchworkServer;

  beforeAll(async () => {
    modelServer = await startModelServer({ port: 0, scenarios });
    server = await startPatchworkServer({
      env: {
        ...modelServerEnvironment(modelServer.url, ["happy-path", ...Object.keys(scenarios)]),
        ...target.env,
        PATCHWORK_DATA_DIR: temporaryDataDir("run-check"),
        APPS_CODING_AGENT_AUTO_VERIFY: "1",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await modelServer?.close();
  });

  it("checks a run that changed files: a row that says the app works, with a screenshot", async () => {
    const app = await createApp(server, "Checked run");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:happy-path",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expectGaplessRun(events, run);
    expect(events.at(-1)?.type).toBe("run.completed");
    const started = eventsOfType(events, "tool.started").filter(
      (event) => event.payload.tool === "check_app",
    );
    expect(started).toHaveLength(1);
    const [completed] = eventsOfType(events, "tool.completed").filter(
      (event) => event.payload.tool === "check_app",
    );
    expect(completed.payload).toMatchObject({
      summary: "Checked: builds, types, no runtime errors",
      verdict: "works",
    });
    expect(String(completed.payload.screenshot)).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(String(completed.payload.visible_text)).toContain(patchedHeading);
    // The check comes before the revision lands.
    expect(events.indexOf(completed)).toBeLessThan(
      events.findIndex((event) => event.type === "revision.created"),
    );
  });

  it("tells the model when its change broke the app, and lands the fix it makes", async () => {
    const app = await createApp(server, "Broken then fixed");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:breaks-then-fixes",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    const checks = events.filter(
      (event) =>
        (event.type === "tool.completed" || event.type === "tool.failed") &&
        event.payload.tool === "check_app",
    );
    expect(checks.map((event) => event.type)).toEqual(["tool.failed", "tool.completed"]);
    expect(checks[0].payload.message).toBe("Check failed: builds, types, 1 runtime error");
    expect(JSON.stringify(checks[0].payload.diagnostics)).toContain(
      "The heading could not be read",
    );
    expect(checks[0].payload.diagnostics).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: "src/App.tsx" })]),
    );

    const followUp = modelServer.requests.find(
      (request) =>
        request.model === "breaks-then-fixes" &&
        JSON.stringify(request.body?.messages ?? []).includes("does not work yet"),
    );
    expect(JSON.stringify(followUp?.body?.messages)).toContain("The heading could not be read");
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(patchedHeading);
    expect(eventsOfType(events, "notice").map((event) => event.payload.kind)).not.toContain(
      "check_failed",
    );
  });

  it("ends saying plainly that the app does not work when the attempts run out", async () => {
    const app = await createApp(server, "Stays broken");
    const run = await startRun(server, app.id, {
      input: "Change the heading",
      model_id: "compatible:always-broken",
    });
    const { events } = await collectRun(server, app.id, run.id);
    expect(events.at(-1)?.type).toBe("run.completed");
    const failedChecks = eventsOfType(events, "tool.failed").filter(
      (event) => event.payload.tool === "check_app",
    );
    // The first check and one after each of the two attempts (APPS_CODING_AGENT_VERIFY_ATTEMPTS).
    expect(failedChecks).toHaveLength(3);
    const [notice] = eventsOfType(events, "notice").filter(
      (event) => event.payload.kind === "check_failed",
    );
    expect(notice.payload.message).toContain("The app does not work yet after 2 attempts");
    // The changes still land: the person decides what to do next.
    expect(await readDraftFile(server, app.id, "src/App.tsx")).toContain(
      "The heading could not be read",
    );
  });
});
