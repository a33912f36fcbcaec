import "server-only";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { runErrorCodes } from "@/lib/agent/events/event-types";
import { starterHeading } from "@/lib/workspace/starter-template";
import type { CodingEngine, EngineResult, EngineRunInput, EngineSink } from "../engine";

/** The heading the scripted engine writes once its change is accepted. */
export const scriptedTestHeading = "Approved by the scripted engine";

/**
 * TEST-ONLY folder engine, registered only when PATCHWORK_TEST_ENGINES=1: it asks to replace the
 * starter's heading in the materialised folder, waits for the approval, and edits the file only
 * when accepted — the approval flow end to end without an external CLI. An input containing
 * "wait for stop" makes it wait for the run's signal after the edit instead of ending.
 */
export const scriptedTestEngine: CodingEngine = {
  id: "scripted-test",
  label: "Scripted test engine",
  workspaceForm: "folder",
  async status() {
    return { id: "scripted-test", label: "Scripted test engine", available: true };
  },
  modelUnsupportedReason() {
    return null;
  },
  run: runScriptedTestEngine,
};

async function runScriptedTestEngine(
  input: EngineRunInput,
  sink: EngineSink,
): Promise<EngineResult> {
  if (input.workspace.form !== "folder") throw new Error("the scripted engine needs a folder");
  const { directory } = input.workspace;
  const target = await findFileContaining(directory, starterHeading);
  const usage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  if (!target) {
    sink.text("The starter heading is not in this app, so there is nothing to change.");
    return { text: "nothing to change", usage, hitIterationLimit: false };
  }
  sink.text(`I will change the heading in ${target}.`);
  const before = await readFile(path.join(/*turbopackIgnore: true*/ directory, target), "utf8");
  const after = before.replace(starterHeading, scriptedTestHeading);
  const callId = "scripted-edit-1";
  await sink.emit("tool.started", {
    call_id: callId,
    tool: "file_change",
    title: `Edit ${target}`,
  });
  const decision = await sink.requestApproval({
    kind: "file_change",
    description: `Edit ${target}`,
    context: {
      diff: createTwoFilesPatch(`a/${target}`, `b/${target}`, before, after),
      paths: [target],
    },
  });
  if (decision === "decline") {
    await sink.emit("tool.failed", {
      call_id: callId,
      tool: "file_change",
      title: `Edit ${target}`,
      code: runErrorCodes.toolDeclined,
      message: "The change was declined.",
      diagnostics: [],
    });
    sink.text(" The change was declined, so nothing was edited.");
    return { text: "declined", usage, hitIterationLimit: false };
  }
  await writeFile(path.join(/*turbopackIgnore: true*/ directory, target), after);
  await sink.emit("tool.completed", {
    call_id: callId,
    tool: "file_change",
    title: `Edit ${target}`,
    summary: `Changed the heading in ${target}.`,
  });
  if (input.input.includes("wait for stop")) {
    await new Promise<void>((resolve) => {
      if (input.signal.aborted) resolve();
      input.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    throw input.signal.reason;
  }
  sink.text(" Done.");
  return { text: "changed", usage, hitIterationLimit: false };
}

async function findFileContaining(directory: string, text: string): Promise<string | null> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  for (const entry of entries.sort((left, right) => (left.name < right.name ? -1 : 1))) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    if ((await readFile(absolute, "utf8")).includes(text)) {
      return path.relative(directory, absolute).split(path.sep).join("/");
    }
  }
  return null;
}
