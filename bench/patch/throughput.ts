import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { applyPatch as applyWithJsdiff } from "diff";
import { applyPatch } from "@/lib/patch";
import { median } from "../table";
import type { SourceFile } from "./corpus-sources";
import { diffOf, textOf } from "./make-edit";

export interface ThroughputResult {
  lines: number;
  hunks: number;
  patchworkMs: number;
  gnuPatchMs: number;
  jsdiffMs: number;
  patchworkCorrect: boolean;
}

function time(run: () => void, repetitions: number): number {
  const samples: number[] = [];
  for (let index = 0; index < repetitions; index += 1) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/**
 * A 500-hunk patch on a 20,000-line file: the first 20,000 lines of the largest corpus file,
 * one line renamed every 40 lines. Median wall time of several runs each for our engine (in
 * process), GNU patch (a process per run, as a caller would use it) and jsdiff.
 */
export function measureThroughput(source: SourceFile, scratch: string): ThroughputResult {
  const lineCount = 20_000;
  const hunkCount = 500;
  const original = source.lines.slice(0, lineCount);
  while (original.length < lineCount)
    original.push(...source.lines.slice(0, lineCount - original.length));
  const edited = [...original];
  const spacing = lineCount / hunkCount;
  for (let hunk = 0; hunk < hunkCount; hunk += 1) {
    const line = hunk * spacing + spacing / 2;
    edited[line] = `${original[line]} // edit ${hunk}`;
  }
  const fileName = "large.js";
  const patch = diffOf(fileName, original, edited);
  const before = textOf(original);
  const after = textOf(edited);
  const files = new Map([[fileName, before]]);

  const once = applyPatch({ files, patch });
  const patchworkCorrect =
    once.ok &&
    once.updates.get(fileName) === after &&
    (patch.match(/^@@/gm)?.length ?? 0) === hunkCount;
  for (let warmup = 0; warmup < 5; warmup += 1) applyPatch({ files, patch });
  const patchworkMs = time(() => applyPatch({ files, patch }), 21);

  fs.writeFileSync(path.join(scratch, "change.diff"), patch);
  const target = path.join(scratch, fileName);
  const gnuPatchMs = time(() => {
    fs.writeFileSync(target, before);
    spawnSync(
      "patch",
      ["-p1", "--batch", "--forward", "-s", "--no-backup-if-mismatch", "-i", "change.diff"],
      { cwd: scratch },
    );
  }, 11);
  const jsdiffMs = time(() => applyWithJsdiff(before, patch), 5);
  return {
    lines: lineCount,
    hunks: hunkCount,
    patchworkMs,
    gnuPatchMs,
    jsdiffMs,
    patchworkCorrect,
  };
}
