import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { EngineSink } from "./engine";
import { reapEngineProcess, spawnEngineProcess, withEngineProcess } from "./engine-process";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function recordingSink(recorded: (number | null)[]): EngineSink {
  return {
    text: () => undefined,
    reasoning: () => undefined,
    emit: async () => undefined,
    flush: async () => undefined,
    recordEngineRunRef: async () => undefined,
    noteToolCall: () => undefined,
    recordProcess: async (pid) => {
      recorded.push(pid);
    },
    requestApproval: async () => "decline",
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function options(recorded: (number | null)[], script: string) {
  const cwd = mkdtempSync(path.join(tmpdir(), "patchwork-engine-"));
  folders.push(cwd);
  return {
    runId: "11111111-2222-4333-8444-555555555555",
    command: "/bin/sh",
    args: ["-c", script],
    cwd,
    env: { PATH: process.env.PATH ?? "", OPENAI_API_KEY: "sk-abcdefghijklmnopqrstuvwxyz123456" },
    sink: recordingSink(recorded),
  };
}

describe("engine processes", () => {
  it("records the pid, kills the whole group (children too) on the way out, and clears the pid", async () => {
    const recorded: (number | null)[] = [];
    let grandchild = 0;
    await withEngineProcess(
      options(
        recorded,
        "sleep 30 & echo $! ; echo 'token sk-abcdefghijklmnopqrstuvwxyz123456' >&2; wait",
      ),
      async (engine) => {
        grandchild = await new Promise<number>((resolve) =>
          engine.child.stdout?.once("data", (chunk) => resolve(Number(String(chunk).trim()))),
        );
        expect(alive(grandchild)).toBe(true);
        await waitUntil(() => engine.stderrTail().includes("token"));
        expect(engine.stderrTail()).not.toContain("sk-abcdefghijklmnopqrstuvwxyz123456");
      },
    );
    expect(recorded).toEqual([expect.any(Number), null]);
    await waitUntil(() => !alive(grandchild));
  });

  it("reaps a group left behind only when it carries the run's marker", async () => {
    const recorded: (number | null)[] = [];
    const engine = await spawnEngineProcess(options(recorded, "sleep 30"));
    expect(await reapEngineProcess(engine.pid, "another-run")).toBe(false);
    expect(alive(engine.pid)).toBe(true);
    expect(await reapEngineProcess(engine.pid, "11111111-2222-4333-8444-555555555555")).toBe(true);
    expect(await engine.exited).toEqual({ code: null, signal: "SIGKILL" });
  });
});
