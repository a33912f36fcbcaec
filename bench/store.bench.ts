/**
 * Workspace store benchmark (issue 2): one-file revisions in a synthetic 2,000-file / 20 MB app,
 * storage growth over 100 revisions, checkpoint restore time versus app size — compared in the
 * same run with git (the classic content-addressed store) doing the same commits.
 * Run: npm run bench:store   (BENCH_DATABASE_URL=postgres://… adds a Postgres row)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { commitRevision, createApp, createCheckpoint, restoreCheckpoint } from "@/lib/workspace";
import { formatBytes, formatMs, median, percentile, printTable } from "./table";

const revisionCount = 100;

function syntheticApp(fileCount: number, fileBytes: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let index = 0; index < fileCount; index += 1) {
    const directory = `src/module-${Math.floor(index / 100)}/part-${Math.floor(index / 10) % 10}`;
    const line = `export const value${index} = "${"x".repeat(60)}";\n`;
    files[`${directory}/file-${index}.ts`] = line
      .repeat(Math.ceil(fileBytes / line.length))
      .slice(0, fileBytes);
  }
  return files;
}

async function storedBytes(handle: DatabaseHandle): Promise<number> {
  const result = await handle.db.execute(sql`
    select (select coalesce(sum(octet_length(bytes)), 0) from blob)
         + (select coalesce(sum(octet_length(entries::text)), 0) from tree)
         + (select count(*) * 200 from revision) as bytes`);
  const rows = ("rows" in (result as object) ? (result as { rows: unknown }).rows : result) as {
    bytes: string | number;
  }[];
  return Number(rows[0].bytes);
}

async function benchDatabase(name: string, handle: DatabaseHandle) {
  const files = syntheticApp(2000, 10 * 1024);
  const appBytes = Object.values(files).reduce((sum, text) => sum + text.length, 0);
  const createStarted = performance.now();
  const app = await createApp(handle.db, { name: "bench", files });
  const createMs = performance.now() - createStarted;
  const checkpoint = await createCheckpoint(handle.db, {
    appId: app.id,
    kind: "manual",
    label: "start",
  });
  const before = await storedBytes(handle);
  let head = app.draftRevisionId;
  const timings: number[] = [];
  let changedBytes = 0;
  for (let index = 0; index < revisionCount; index += 1) {
    const path = `src/module-${index % 20}/part-${index % 10}/file-${(index % 20) * 100 + (index % 10) * 10}.ts`;
    const content = `${files[path]}// edit ${index}\n`;
    changedBytes += content.length;
    const started = performance.now();
    const { revision } = await commitRevision(handle.db, {
      appId: app.id,
      baseRevisionId: head,
      changes: [{ type: "write", path, content }],
      source: "manual",
    });
    timings.push(performance.now() - started);
    head = revision.id;
  }
  const growth = (await storedBytes(handle)) - before;

  const restoreTimes: Record<string, number> = {};
  for (const size of [20, 2000]) {
    const small =
      size === 2000
        ? app
        : await createApp(handle.db, { name: "small", files: syntheticApp(size, 10 * 1024) });
    const point =
      size === 2000
        ? checkpoint
        : await createCheckpoint(handle.db, { appId: small.id, kind: "manual" });
    const samples: number[] = [];
    for (let run = 0; run < 20; run += 1) {
      const started = performance.now();
      await restoreCheckpoint(handle.db, { appId: small.id, checkpointId: point.id });
      samples.push(performance.now() - started);
    }
    restoreTimes[size] = median(samples);
  }
  return { name, appBytes, createMs, timings, growth, changedBytes, restoreTimes };
}

function benchGit() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "patchwork-bench-git-"));
  const files = syntheticApp(2000, 10 * 1024);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=b@b", "-c", "user.name=b", ...args], { cwd: directory });
  git("init", "-q");
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.join(directory, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(directory, file), content);
  }
  git("add", "-A");
  git("commit", "-qm", "init");
  const objectsSize = () =>
    Number(
      execFileSync("du", ["-sb", path.join(directory, ".git/objects")])
        .toString()
        .split("\t")[0],
    );
  const before = objectsSize();
  const timings: number[] = [];
  for (let index = 0; index < revisionCount; index += 1) {
    const file = `src/module-${index % 20}/part-${index % 10}/file-${(index % 20) * 100 + (index % 10) * 10}.ts`;
    const started = performance.now();
    fs.appendFileSync(path.join(directory, file), `// edit ${index}\n`);
    git("commit", "-qam", `edit ${index}`);
    timings.push(performance.now() - started);
  }
  const growth = objectsSize() - before;
  const restoreStarted = performance.now();
  git("checkout", "-q", "HEAD~100", "--", ".");
  const restoreMs = performance.now() - restoreStarted;
  fs.rmSync(directory, { recursive: true, force: true });
  return { timings, growth, restoreMs };
}

export async function runStoreBench(): Promise<void> {
  const targets: [string, () => Promise<DatabaseHandle>][] = [
    ["PGlite (in memory)", () => openDatabase({})],
  ];
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) targets.push(["PostgreSQL", () => openDatabase({ url })]);
  const results = [];
  for (const [name, open] of targets) {
    const handle = await open();
    try {
      results.push(await benchDatabase(name, handle));
    } finally {
      await handle.close();
    }
  }
  const git = benchGit();
  const gitMedian = median(git.timings);
  printTable(
    `Workspace store: 2,000 files / ${formatBytes(results[0].appBytes)} app, ${revisionCount} one-file revisions (baseline: git commit -a of the same edit)`,
    [
      ...results.map((result) => ({
        store: result.name,
        "revision p50 ms": formatMs(median(result.timings)),
        "revision p95 ms": formatMs(percentile(result.timings, 0.95)),
        "vs git p50": `${(median(result.timings) / gitMedian).toFixed(2)}×`,
        "growth, 100 revisions": formatBytes(result.growth),
        "changed bytes": formatBytes(result.changedBytes),
        "growth / changed": `${(result.growth / result.changedBytes).toFixed(2)}×`,
        "naive snapshots": formatBytes(result.appBytes * revisionCount),
        "restore ms (20 files)": formatMs(result.restoreTimes[20]),
        "restore ms (2,000 files)": formatMs(result.restoreTimes[2000]),
      })),
      {
        store: "git (baseline)",
        "revision p50 ms": formatMs(gitMedian),
        "revision p95 ms": formatMs(percentile(git.timings, 0.95)),
        "vs git p50": "1.00×",
        "growth, 100 revisions": formatBytes(git.growth),
        "changed bytes": formatBytes(results[0].changedBytes),
        "growth / changed": `${(git.growth / results[0].changedBytes).toFixed(2)}×`,
        "naive snapshots": "-",
        "restore ms (20 files)": "-",
        "restore ms (2,000 files)": formatMs(git.restoreMs),
      },
    ],
  );
  console.log(
    "Targets: revision ≤ 50 ms, growth ≈ changed bytes, restore ≤ 50 ms and flat in app size.",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStoreBench();
}
