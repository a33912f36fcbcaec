import fs from "node:fs";

/** Processes still marked with this run (an engine's process group carries the run's id). */
export function processesOfRun(runId: string): number[] {
  return processesWhereEnvironment((entries) =>
    entries.includes(`PATCHWORK_ENGINE_RUN_ID=${runId}`),
  );
}

/** Processes whose environment (Linux /proc) passes `test`; unreadable ones are skipped. */
export function processesWhereEnvironment(test: (entries: string[]) => boolean): number[] {
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const environment = fs.readFileSync(`/proc/${entry}/environ`, "utf8");
      return test(environment.split("\0")) ? [Number(entry)] : [];
    } catch {
      // Gone meanwhile, or not ours to read.
      return [];
    }
  });
}
