/**
 * Run-stream benchmark (issue 4): the scripted model emits 2,000 text deltas as fast as it can;
 * we measure, at an SSE client, the latency Patchwork adds to each delta and the events per
 * second, with 1 and with 20 concurrent runs (one app each), and count lost deltas.
 *
 * A third level paces the model at about one delta per millisecond per run (a fast hosted model
 * streams 50–300 tokens a second), 20 runs at once: the load a busy server actually sees, where
 * the target can be read without the machine itself being the bottleneck.
 *
 * Latency of delta i = when a client had it − when the model's SSE chunk carrying it reached a
 * recording proxy placed in front of the model server. It is measured over three paths, at the
 * same concurrency, in the same run:
 *   - raw read: a client reads the model server's SSE itself (eventsource-parser + JSON.parse);
 *   - AI SDK read: `streamText` reads it, in a process of its own, plain as any app would, and
 *     again through Patchwork's `coalescingFetch` (pieces already waiting joined) as its agent does;
 *   - the floors (`bench/stream/relay.ts`): a bare `node:http` relay in a process of its own in
 *     front of the proxy, forwarding each chunk as it comes, and the same relay committing each
 *     chunk to the database first (group commit) — the least any server that keeps PRODUCT.md's
 *     promise ("committed before anyone sees them") can add on this machine;
 *   - Patchwork: a run is created and its SSE stream read, so the delta went through the AI SDK,
 *     the run's event writer (stored in the database), the bus and the SSE route.
 * "Added" latency of delta i is Patchwork's latency minus a baseline's for the same delta of the
 * same run slot (run k of each path reads scenario bench-k), so the apparatus cancels out.
 *
 * Stamps are taken on the monotonic clock, which the processes share. The model server and the
 * AI SDK reader run in processes of their own; the proxy and the SSE clients run here.
 *
 * Needs a production build, because it serves what users run: `npm run build` first (set
 * PATCHWORK_DIST_DIR for both if you build into another folder). Run: npm run bench:stream
 * (BENCH_DATABASE_URL=postgres://… adds Postgres rows to the PGlite ones).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createParser } from "eventsource-parser";
import { builtInScenarios, modelServerEnvironment } from "@/test/model-server";
import {
  api,
  freePort,
  type PatchworkServer,
  type PatchworkWorker,
  startPatchworkServer,
  startPatchworkWorker,
  temporaryDataDir,
} from "@/test/support/patchwork-server";
import { type RecordingProxy, startRecordingProxy } from "@/test/support/recording-proxy";
import { openSse, type SseConnection } from "@/test/support/sse-client";
import { monotonicMs, performanceToMonotonic, type TimedText } from "./stream/timing";
import { formatMs, median, percentile, printTable } from "./table";

const deltaCount = 2_000;
/** Milliseconds the paced model waits between deltas. */
const pacedDelayMs = 1;

interface Level {
  runs: number;
  /** Scenario k of this level is `${prefix}-k`. */
  prefix: string;
  label: string;
  /** Whether the AI SDK baselines are measured too (they are slow at max rate, and cost time). */
  sdkBaselines: boolean;
}

const levels: Level[] = [
  { runs: 1, prefix: "bench", label: "max rate", sdkBaselines: true },
  { runs: 20, prefix: "bench", label: "max rate", sdkBaselines: true },
  {
    runs: 20,
    prefix: "bench-paced",
    label: `paced, ${pacedDelayMs} ms/delta`,
    sdkBaselines: false,
  },
];
const maximumConcurrency = Math.max(...levels.map((level) => level.runs));
/** The level the ratios to the committing relay are read at (issue 17: 20 paced runs). */
const pacedLevel = levels.find((level) => level.prefix === "bench-paced")!;
/** The scenario the AI SDK reader streams once, unmeasured, before its measured reads. */
const warmUpModel = "bench-warm-up";
const tokenPattern = /^t(\d+) /;
const partialTokenPattern = /^t\d*$/;

export interface Measurement {
  /** Client arrival − proxy arrival, per delta, over every run of the level. */
  latencyMs: number[];
  /** The same by run slot and token index (NaN where lost), to pair paths delta by delta. */
  latencyByRun: number[][];
  lost: number;
  /** Deltas per second seen by each client, first to last delta (runs with more than one frame). */
  perRunRates: number[];
  /** All deltas of the level / (last arrival − first arrival) across runs. */
  totalRate: number;
  /** Deltas per second leaving the model (at the proxy), median over runs. */
  modelRate: number;
  /** Pieces the client received per run (median): 2,000 unless something joined them. */
  piecesPerRun: number;
  /**
   * Request sent → the model's first chunk at the proxy (median), where this process sent the
   * request: for Patchwork, creating the run, starting it and calling the model.
   */
  startMs?: number;
}

/**
 * Arrival stamps by token index, read from the concatenated text (`t0 t1 …`), so deltas the
 * writer coalesces still count; a token is stamped when the frame completing it arrived.
 * Tokens out of order, repeated, or text that is no token count as lost.
 */
function stampsByIndex(deltas: TimedText[]): { stamps: number[]; bad: number } {
  const stamps: number[] = new Array(deltaCount).fill(Number.NaN);
  let bad = 0;
  let expected = 0;
  let buffer = "";
  for (const delta of deltas) {
    buffer += delta.text;
    for (let match = tokenPattern.exec(buffer); match; match = tokenPattern.exec(buffer)) {
      const index = Number(match[1]);
      if (index !== expected) bad += 1;
      if (index < deltaCount && Number.isNaN(stamps[index])) stamps[index] = delta.at;
      expected = index + 1;
      buffer = buffer.slice(match[0].length);
    }
    if (!partialTokenPattern.test(buffer) && buffer !== "") {
      bad += 1;
      buffer = "";
    }
  }
  return { stamps, bad };
}

/** Deltas as the model sent them, from the proxy's record of one chat completion. */
function modelDeltas(proxy: RecordingProxy, model: string, since: number): TimedText[] {
  const exchange = proxy.exchanges
    .slice(since)
    .find(
      (candidate) =>
        candidate.path.endsWith("/chat/completions") &&
        JSON.parse(candidate.requestBody).model === model,
    );
  if (!exchange) throw new Error(`The model server never saw a request for ${model}`);
  return exchange.events
    .filter((event) => event.data !== "[DONE]")
    .flatMap((event) => {
      const content = JSON.parse(event.data).choices?.[0]?.delta?.content;
      return typeof content === "string" && content !== ""
        ? [{ text: content, at: toMonotonic(event.receivedAt) }]
        : [];
    });
}

function summarize(
  runs: { client: TimedText[]; model: TimedText[]; startedAt?: number }[],
): Measurement {
  const latencyMs: number[] = [];
  const latencyByRun: number[][] = [];
  const perRunRates: number[] = [];
  const modelRates: number[] = [];
  let lost = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const run of runs) {
    const client = stampsByIndex(run.client);
    const model = stampsByIndex(run.model);
    if (model.bad > 0 || model.stamps.some(Number.isNaN))
      throw new Error("The model server did not send t0 … t1999 in order");
    lost += client.bad + client.stamps.filter(Number.isNaN).length;
    const latencies = client.stamps.map((at, index) => at - model.stamps[index]);
    latencyByRun.push(latencies);
    latencyMs.push(...latencies.filter((latency) => !Number.isNaN(latency)));
    const clientFirst = client.stamps[0];
    const clientLast = client.stamps[deltaCount - 1];
    // A run whose deltas all came in one frame has no rate of its own.
    if (clientLast > clientFirst)
      perRunRates.push((deltaCount - 1) / ((clientLast - clientFirst) / 1000));
    modelRates.push((deltaCount - 1) / ((model.stamps[deltaCount - 1] - model.stamps[0]) / 1000));
    first = Math.min(first, clientFirst);
    last = Math.max(last, clientLast);
  }
  return {
    latencyMs,
    latencyByRun,
    lost,
    perRunRates,
    totalRate: (runs.length * deltaCount) / ((last - first) / 1000),
    modelRate: median(modelRates),
    piecesPerRun: median(runs.map((run) => run.client.length)),
    startMs: runs.every((run) => run.startedAt !== undefined)
      ? median(runs.map((run) => run.model[0].at - run.startedAt!))
      : undefined,
  };
}

/** The same clock for every stamp: this process's `performance.now()` moved onto the monotonic one. */
const toMonotonic = performanceToMonotonic();

/**
 * Baseline 1: `count` concurrent clients reading the model server's SSE raw, through the proxy
 * (or through a relay in front of it, `baseUrl`, for the floors).
 */
async function measureDirect(
  proxy: RecordingProxy,
  level: Level,
  baseUrl = proxy.url,
): Promise<Measurement> {
  const since = proxy.exchanges.length;
  const runs = await Promise.all(
    Array.from({ length: level.runs }, async (_, index) => {
      const model = `${level.prefix}-${index}`;
      const startedAt = monotonicMs();
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model,
          stream: true,
          messages: [{ role: "user", content: "Stream, please." }],
        }),
      });
      if (!response.body) throw new Error("The model server answered without a body");
      const client: TimedText[] = [];
      let at = 0;
      const parser = createParser({
        onEvent: (message) => {
          if (message.data === "[DONE]") return;
          const content = JSON.parse(message.data).choices?.[0]?.delta?.content;
          if (typeof content === "string" && content !== "") client.push({ text: content, at });
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        at = monotonicMs();
        parser.feed(chunk.value);
      }
      return { client, model, startedAt };
    }),
  );
  return summarize(runs.map((run) => ({ ...run, model: modelDeltas(proxy, run.model, since) })));
}

const projectRoot = path.resolve(import.meta.dirname, "..");

/** Runs one of the project's TypeScript files (through tsx) in a process of its own, output piped. */
function spawnScript(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(projectRoot, script), ...args], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Baselines 2 and 3: `count` concurrent AI SDK `streamText` reads of the model server (through
 * the proxy), plain or through Patchwork's `coalescingFetch`, in a child process (`bench/stream/sdk-reader.ts`) so they do not share this event loop
 * with the proxy whose stamps they are measured against.
 */
async function measureSdk(
  proxy: RecordingProxy,
  level: Level,
  options: { join: boolean },
): Promise<Measurement> {
  const since = proxy.exchanges.length;
  const models = Array.from({ length: level.runs }, (_, index) => `${level.prefix}-${index}`);
  const child = spawnScript("bench/stream/sdk-reader.ts", [
    ...(options.join ? ["--join"] : []),
    "--warm-up",
    warmUpModel,
    proxy.url,
    ...models,
  ]);
  let output = "";
  let errors = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    errors += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`The AI SDK reader exited with ${code}:\n${errors}`);
  const runs = JSON.parse(output) as { model: string; deltas: TimedText[] }[];
  return summarize(
    runs.map((run) => ({ client: run.deltas, model: modelDeltas(proxy, run.model, since) })),
  );
}

/** `count` concurrent runs on `count` apps, each streamed by its own SSE client from its creation. */
export async function measurePatchwork(
  server: PatchworkServer,
  proxy: RecordingProxy,
  appIds: string[],
  prefix: string,
): Promise<Measurement> {
  const since = proxy.exchanges.length;
  const runs = await Promise.all(
    appIds.map(async (appId, index) => {
      const model = `${prefix}-${index}`;
      const startedAt = monotonicMs();
      const created = await api(server, `/api/apps/${appId}/coding-agent/runs`, {
        method: "POST",
        body: { input: `Benchmark run ${index}`, model_id: `compatible:${model}` },
      });
      if (created.status !== 201)
        throw new Error(
          `Creating a run answered ${created.status}: ${JSON.stringify(created.body)}`,
        );
      const connection = await openStream(
        `${server.url}/api/apps/${appId}/coding-agent/runs/${created.body.run.id}/stream`,
      );
      const client: TimedText[] = [];
      let terminal = "";
      for await (const frame of connection.frames) {
        if (frame.data.type === "assistant.delta")
          client.push({ text: String(frame.data.payload.text), at: toMonotonic(frame.receivedAt) });
        if (frame.data.type.startsWith("run.") && frame.data.type !== "run.accepted")
          terminal = frame.data.type;
      }
      if (terminal !== "run.completed")
        throw new Error(`Run ${index} ended with ${terminal || "no terminal event"}`);
      return { client, model, startedAt };
    }),
  );
  return summarize(runs.map((run) => ({ ...run, model: modelDeltas(proxy, run.model, since) })));
}

/**
 * Opens a run stream, retrying once when a pooled keep-alive socket was reset under us: fetch
 * reuses idle sockets the server may be closing at that instant, which is not what we measure.
 */
async function openStream(url: string): Promise<SseConnection> {
  try {
    return await openSse(url, { signal: AbortSignal.timeout(300_000) });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw error;
    return openSse(url, { signal: AbortSignal.timeout(300_000) });
  }
}

/**
 * The scripted model server in a process of its own (`test/model-server/cli.ts`), so its tight
 * write loop never shares an event loop with the clients whose arrival times we stamp.
 */
export async function startModelProcess(names: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const scenarioDirectory = temporaryDataDir("stream-bench-scenarios");
  const longStream = builtInScenarios()["long-stream"];
  for (const name of names) {
    const steps = name.startsWith("bench-paced-")
      ? longStream.steps.map((step) => ({ ...step, delay_ms_between_chunks: pacedDelayMs }))
      : longStream.steps;
    const scenario = { name, description: longStream.description, steps };
    fs.writeFileSync(path.join(scenarioDirectory, `${name}.json`), JSON.stringify(scenario));
  }
  const port = await freePort();
  const server = await startScriptServer(
    "test/model-server/cli.ts",
    ["--port", String(port), "--scenario-dir", scenarioDirectory],
    /Scripted model server/,
    "The model server",
  );
  return { url: `http://127.0.0.1:${port}/v1`, stop: server.stop };
}

/**
 * The floor (`bench/stream/relay.ts`) in a process of its own in front of the proxy: plain, or
 * committing every chunk to `store` (`pglite` or a Postgres URL) before it forwards it.
 */
async function startRelay(
  upstream: string,
  store?: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const server = await startScriptServer(
    "bench/stream/relay.ts",
    [...(store ? ["--store", store] : []), upstream],
    /Relay listening on (\S+)/,
    "The relay",
  );
  return { url: server.ready[1], stop: server.stop };
}

/**
 * Spawns one of the project's scripts as a server and waits until its output matches `ready`;
 * `stop` ends it and waits for it to exit.
 */
async function startScriptServer(
  script: string,
  args: string[],
  ready: RegExp,
  name: string,
): Promise<{ ready: RegExpExecArray; stop(): Promise<void> }> {
  const child = spawnScript(script, args);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}):\n${output}`)));
  });
  return {
    ready: match,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

function row(
  database: string,
  path: string,
  level: Level,
  measurement: Measurement,
): Record<string, string | number> {
  return {
    database,
    path,
    runs: level.runs,
    model: level.label,
    "deltas lost": measurement.lost,
    "pieces/run": measurement.piecesPerRun,
    "start ms": measurement.startMs === undefined ? "-" : formatMs(measurement.startMs),
    "latency p50 ms": formatMs(median(measurement.latencyMs)),
    "latency p99 ms": formatMs(percentile(measurement.latencyMs, 0.99)),
    "latency max ms": formatMs(Math.max(...measurement.latencyMs)),
    "events/s per run":
      measurement.perRunRates.length > 0 ? Math.round(median(measurement.perRunRates)) : "-",
    // All of a level's deltas in one frame (one run, coalesced) have no rate either.
    "events/s total": Number.isFinite(measurement.totalRate)
      ? Math.round(measurement.totalRate)
      : "-",
    "model emits/s": Math.round(measurement.modelRate),
  };
}

/**
 * Patchwork's added latency over the raw read beside the committing relay's, and their ratio:
 * what storing every event before sending it must cost on this database, against what Patchwork
 * pays for the same promise.
 */
function ratioRow(
  deployment: string,
  patchwork: Measurement,
  relay: Measurement,
  raw: Measurement,
): Record<string, string | number> {
  const ours = addedOver(patchwork, raw);
  const floor = addedOver(relay, raw);
  const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : "-");
  return {
    deployment,
    "Patchwork p50 ms": formatMs(median(ours)),
    "relay p50 ms": formatMs(median(floor)),
    "p50 ratio (target ≤ 1.5×)": ratio(median(ours), median(floor)),
    "Patchwork p99 ms": formatMs(percentile(ours, 0.99)),
    "relay p99 ms": formatMs(percentile(floor, 0.99)),
    "p99 ratio (target ≤ 3×)": ratio(percentile(ours, 0.99), percentile(floor, 0.99)),
    "deltas lost": patchwork.lost,
  };
}

/** Patchwork's latency minus a baseline's, delta by delta (same run slot, same token). */
function addedOver(patchwork: Measurement, baseline: Measurement): number[] {
  return patchwork.latencyByRun.flatMap((latencies, run) =>
    latencies
      .map((latency, index) => latency - baseline.latencyByRun[run][index])
      .filter((added) => !Number.isNaN(added)),
  );
}

interface Baselines {
  raw: Measurement;
  sdk?: Measurement;
  joinedSdk?: Measurement;
}

function addedRow(
  database: string,
  path: string,
  level: Level,
  patchwork: Measurement,
  baselines: Baselines,
): Record<string, string | number> {
  const columns: Record<string, string | number> = {
    database,
    path,
    runs: level.runs,
    model: level.label,
  };
  for (const [label, baseline] of [
    ["raw read", baselines.raw],
    ["AI SDK read", baselines.sdk],
    ["AI SDK + joining", baselines.joinedSdk],
  ] as const) {
    const added = baseline ? addedOver(patchwork, baseline) : [];
    columns[`vs ${label} p50 ms`] = baseline ? formatMs(median(added)) : "-";
    columns[`vs ${label} p99 ms`] = baseline ? formatMs(percentile(added, 0.99)) : "-";
  }
  columns["deltas lost"] = patchwork.lost;
  return columns;
}

export async function runStreamBench(): Promise<void> {
  const distDir = process.env.PATCHWORK_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) {
    throw new Error(
      `The stream benchmark serves the production build, and ${distDir}/BUILD_ID is missing: run \`npm run build\` first.`,
    );
  }
  const names = [...new Set(levels.map((level) => level.prefix))].flatMap((prefix) =>
    Array.from({ length: maximumConcurrency }, (_, index) => `${prefix}-${index}`),
  );
  const modelServer = await startModelProcess([...names, warmUpModel]);
  const proxy = await startRecordingProxy({ target: modelServer.url });
  const databases = [
    { name: "pglite", env: {} as Record<string, string> },
    ...(process.env.BENCH_DATABASE_URL
      ? [{ name: "postgres", env: { DATABASE_URL: process.env.BENCH_DATABASE_URL } }]
      : []),
  ];
  const rows: Record<string, string | number>[] = [];
  const addedRows: Record<string, string | number>[] = [];
  const ratioRows: Record<string, string | number>[] = [];
  /** The committing relay's paced measurement, by database: the floor the ratios divide by. */
  const pacedRelays = new Map<string, Measurement>();
  const baselines = new Map<Level, Baselines>();
  try {
    for (const level of levels) {
      const raw = await measureDirect(proxy, level);
      rows.push(row("-", "model server, raw read", level, raw));
      if (!level.sdkBaselines) {
        baselines.set(level, { raw });
        continue;
      }
      const sdk = await measureSdk(proxy, level, { join: false });
      const joinedSdk = await measureSdk(proxy, level, { join: true });
      baselines.set(level, { raw, sdk, joinedSdk });
      rows.push(row("-", "model server, AI SDK read", level, sdk));
      rows.push(row("-", "model server, AI SDK + joining", level, joinedSdk));
    }
    // The floors: a relay that only forwards, then one that commits each chunk first.
    const floors = [
      { database: "-", path: "relay, forwards only", store: undefined },
      ...databases.map((database) => ({
        database: database.name,
        path: "relay, commits then forwards",
        store: database.env.DATABASE_URL ?? "pglite",
      })),
    ];
    for (const floor of floors) {
      const relay = await startRelay(proxy.url, floor.store);
      try {
        // One unmeasured stream warms the relay, as the Patchwork server gets a warm-up run.
        await measureDirect(proxy, levels[0], relay.url);
        for (const level of levels) {
          const measured = await measureDirect(proxy, level, relay.url);
          rows.push(row(floor.database, floor.path, level, measured));
          if (level === pacedLevel && floor.store) pacedRelays.set(floor.database, measured);
          addedRows.push(
            addedRow(floor.database, floor.path, level, measured, {
              raw: baselines.get(level)!.raw,
            }),
          );
        }
      } finally {
        await relay.stop();
      }
    }
    // Patchwork serving and executing in one process, and (Postgres) a web process that only
    // serves beside a worker process that only executes, as a team running workers deploys it.
    const deployments = databases.flatMap((database) => [
      { ...database, topology: "one process", split: false },
      ...(database.name === "postgres"
        ? [{ ...database, topology: "web + worker", split: true }]
        : []),
    ]);
    for (const deployment of deployments) {
      const database = { ...deployment, name: `${deployment.name}, ${deployment.topology}` };
      const env = {
        ...modelServerEnvironment(proxy.url, names),
        ...deployment.env,
        // Every run of a level at once, as the relay serves them.
        PATCHWORK_WORKER_CONCURRENCY: String(maximumConcurrency),
      };
      const server = await startPatchworkServer({
        env: deployment.split ? { ...env, PATCHWORK_ROLE: "web" } : env,
      });
      let worker: PatchworkWorker | null = null;
      try {
        if (deployment.split) worker = await startPatchworkWorker({ env });
        const appIds: string[] = [];
        for (let index = 0; index < maximumConcurrency; index += 1) {
          const created = await api(server, "/api/apps", {
            method: "POST",
            body: { name: `Stream bench ${index}` },
          });
          appIds.push(created.body.app.id);
        }
        // One unmeasured run warms the routes, the provider client and the database.
        await measurePatchwork(server, proxy, appIds.slice(0, 1), "bench");
        for (const level of levels) {
          const patchwork = await measurePatchwork(
            server,
            proxy,
            appIds.slice(0, level.runs),
            level.prefix,
          );
          rows.push(row(database.name, "Patchwork SSE", level, patchwork));
          addedRows.push(
            addedRow(database.name, "Patchwork SSE", level, patchwork, baselines.get(level)!),
          );
          if (level === pacedLevel) {
            const relay = pacedRelays.get(deployment.name);
            if (relay)
              ratioRows.push(ratioRow(database.name, patchwork, relay, baselines.get(level)!.raw));
          }
        }
      } catch (error) {
        // The server's own account of a failure is usually the useful part.
        console.error(`Patchwork (${database.name}) output:\n${server.output().slice(-4_000)}`);
        throw error;
      } finally {
        await worker?.stop();
        await server.stop();
      }
    }
  } finally {
    await proxy.close();
    await modelServer.stop();
  }
  printTable(
    `Run stream: ${deltaCount.toLocaleString("en")} deltas per run, as fast as the model can send them or paced; latency = client has the delta − model chunk at the proxy`,
    rows,
  );
  printTable(
    "Latency Patchwork adds per delta, over each baseline (same run slot, same delta)",
    addedRows,
  );
  printTable(
    `Patchwork over the committing relay, ${pacedLevel.runs} paced runs: added latency (over the raw read) and its ratio`,
    ratioRows,
  );
  console.log(
    "Targets: added p50 ≤ 2 ms and p99 ≤ 20 ms at 20 runs; 0 lost. The paced level is the same 2,000 deltas at about 1 per ms per run. The raw read has no SDK in its path; the plain AI SDK read is what any app streaming through the SDK pays; AI SDK + joining is the SDK as Patchwork's agent reads the model.",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStreamBench();
}
