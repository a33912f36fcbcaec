import { spawn } from "node:child_process";

// Checks once a second that the parent still lives; when it is gone, ends the group and itself.
// Also ends itself when the group is gone (the server stopped normally).
const watcherSource = `
const [parentPid, groupPid] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (error) { return error.code === "EPERM"; } };
setInterval(() => {
  if (!alive(groupPid)) process.exit(0);
  if (!alive(parentPid)) {
    try { process.kill(-groupPid, "SIGKILL"); } catch {}
    process.exit(0);
  }
}, 1000);
`;

/**
 * Keeps a long-lived helper (an `opencode serve`, in a process group of its own) from outliving
 * this process when it is killed with no chance to clean up (SIGKILL, OOM): a tiny watcher
 * process polls this process and kills the group once it is gone. The `exit` hook covers every
 * other way out; this covers the one it cannot.
 */
export function killGroupWhenParentDies(groupPid: number, parentPid: number = process.pid): void {
  const watcher = spawn(
    process.execPath,
    ["-e", watcherSource, String(parentPid), String(groupPid)],
    {
      stdio: "ignore",
      // Its own group, so a signal to ours (Ctrl-C) does not end it before it can act.
      detached: true,
    },
  );
  watcher.unref();
}
