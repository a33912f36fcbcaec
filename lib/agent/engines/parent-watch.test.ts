import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { killGroupWhenParentDies } from "./parent-watch";

const spawned: ChildProcess[] = [];
function idleProcess(detached: boolean): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    stdio: "ignore",
    detached,
  });
  spawned.push(child);
  return child;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

afterEach(() => {
  for (const child of spawned.splice(0)) {
    try {
      if (child.pid) process.kill(child.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
});

describe("killGroupWhenParentDies", () => {
  it("ends the server's group within seconds of its parent being killed with -9", async () => {
    const parent = idleProcess(false);
    const server = idleProcess(true);
    killGroupWhenParentDies(server.pid as number, parent.pid as number);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(alive(server.pid as number)).toBe(true);
    parent.kill("SIGKILL");
    expect(await waitUntil(() => server.signalCode !== null, 5000)).toBe(true);
    expect(server.signalCode).toBe("SIGKILL");
  });

  it("leaves the server alone while its parent lives", async () => {
    const parent = idleProcess(false);
    const server = idleProcess(true);
    killGroupWhenParentDies(server.pid as number, parent.pid as number);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(server.exitCode).toBeNull();
    expect(server.signalCode).toBeNull();
  });
});
