import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { applyPatch } from "@/lib/patch";
import { gnuPatchArguments } from "./engines";

export interface PathologicalRow {
  case: string;
  patchworkMs: number;
  patchworkCode: string;
  gnuPatchMs: number;
  gnuPatchOutcome: string;
}

const lineCount = 100_000;
// GNU patch is given this long per case; beyond it the row says so.
const gnuPatchLimitMs = 120_000;

/** The hostile probe's patch: seven-line hunks of `x` around a removed `y` the file never holds. */
export function pathologicalPatch(hunks: number): string {
  const lines = ["--- a/big.txt", "+++ b/big.txt"];
  for (let hunk = 1; hunk <= hunks; hunk += 1) {
    const start = ((hunk * 7919) % lineCount) + 1;
    lines.push(`@@ -${start},7 +${start},7 @@`, " x", " x", " x", "-y", "+q", " x", " x", " x");
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Patches that match nowhere against a 100,000-line file of `x`: the case that once held the
 * server for 23–30 s (1,000 hunks) and did not finish in 300 s (512 KiB). Our engine in process
 * beside GNU patch as a process, one run each (they are long by design).
 */
export function measurePathological(scratch: string): PathologicalRow[] {
  const file = "x\n".repeat(lineCount);
  const rows: PathologicalRow[] = [];
  for (const [label, hunks] of [
    ["1,000 hunks (48 KB)", 1_000],
    ["10,400 hunks (500 KB)", 10_400],
  ] as const) {
    const patch = pathologicalPatch(hunks);
    const started = performance.now();
    const result = applyPatch({ files: new Map([["big.txt", file]]), patch });
    const patchworkMs = performance.now() - started;

    const folder = path.join(scratch, `pathological-${hunks}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "big.txt"), file);
    fs.writeFileSync(path.join(folder, "change.diff"), patch);
    const gnuStarted = performance.now();
    const gnu = spawnSync("patch", [...gnuPatchArguments, "--dry-run", "-i", "change.diff"], {
      cwd: folder,
      timeout: gnuPatchLimitMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    const gnuPatchMs = performance.now() - gnuStarted;
    rows.push({
      case: label,
      patchworkMs,
      patchworkCode: result.ok ? "applied (WRONG)" : result.code,
      gnuPatchMs,
      gnuPatchOutcome:
        gnu.error && (gnu.error as NodeJS.ErrnoException).code === "ETIMEDOUT"
          ? `stopped after ${gnuPatchLimitMs / 1000} s`
          : gnu.status === 0
            ? "applied (WRONG)"
            : "refused",
    });
  }
  return rows;
}
