import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { applyPatch as applyWithJsdiff } from "diff";
import { applyPatch } from "@/lib/patch";
import type { Variant } from "./perturbations";

/** What an engine did with a variant: its output text, or null when it refused. */
export type EngineRun = string | null;

export interface Engine {
  name: string;
  run(variant: Variant): EngineRun;
}

export const patchworkEngine: Engine = {
  name: "patchwork",
  run(variant) {
    const result = applyPatch({
      files: new Map([[variant.fileName, variant.file]]),
      patch: variant.patch,
    });
    return result.ok ? (result.updates.get(variant.fileName) ?? null) : null;
  },
};

/** How every row runs GNU patch: strip one path level, never ask, never back up or keep rejects. */
export const gnuPatchArguments = [
  "-p1",
  "--batch",
  "--forward",
  "-s",
  "--no-backup-if-mismatch",
  "-r",
  "-",
] as const;

/** GNU patch as shipped by Debian, default fuzz (2), in a scratch folder; a non-zero exit is a refusal. */
export function gnuPatchEngine(scratch: string): Engine {
  return {
    name: "GNU patch",
    run(variant) {
      const target = path.join(scratch, variant.fileName);
      fs.writeFileSync(target, variant.file);
      fs.writeFileSync(path.join(scratch, "change.diff"), variant.patch);
      const outcome = spawnSync("patch", [...gnuPatchArguments, "-i", "change.diff"], {
        cwd: scratch,
        encoding: "utf8",
      });
      return outcome.status === 0 ? fs.readFileSync(target, "utf8") : null;
    },
  };
}

/** jsdiff's applyPatch with fuzzFactor 2 (GNU patch's default fuzz); a throw is a refusal. */
export const jsdiffEngine: Engine = {
  name: "jsdiff fuzz 2",
  run(variant) {
    try {
      const result = applyWithJsdiff(variant.file, variant.patch, { fuzzFactor: 2 });
      return result === false ? null : result;
    } catch {
      return null;
    }
  },
};

export type Verdict = "correct" | "refused" | "wrong";

/**
 * Judges a run honestly: the output must equal the intended post-edit text. Where a refusal is
 * the intended outcome (ambiguous, stale) a refusal is correct, and applying is correct only if
 * it yields exactly the intended text; anything else applied is wrong. `refused` says whether
 * the engine refused, whatever the verdict.
 */
export function judge(variant: Variant, output: EngineRun): { verdict: Verdict; refused: boolean } {
  if (output === null)
    return { verdict: variant.refusalIntended ? "correct" : "refused", refused: true };
  return { verdict: output === variant.intended ? "correct" : "wrong", refused: false };
}
