/**
 * The stream benchmark's AI SDK baselines, run as a process of its own: reads the model server
 * directly with the AI SDK (`createOpenAICompatible`, `streamText`, `fullStream`), one stream per
 * model name, all at once, and prints each text delta with the monotonic clock reading when the
 * SDK handed it over. Plain, it is the SDK as any app uses it; with `--join` it reads through
 * Patchwork's `coalescingFetch`, as the native agent does, so what Patchwork adds beyond that
 * row is its own work: storing, fanning out and serving the events.
 *
 * A fresh process is slow on its first stream (the SDK builds its schemas, V8 has compiled
 * nothing yet); `--warm-up <model>` reads one unmeasured stream first, as the Patchwork server
 * gets a warm-up run, so that cost is not counted as the SDK's per-delta latency.
 *
 * Usage: tsx bench/stream/sdk-reader.ts [--join] [--warm-up <model>] <baseURL> <model> [<model> …]
 * → JSON on stdout.
 */
import { parseArgs } from "node:util";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";
import { coalescingFetch } from "@/lib/agent/engines/native/coalesce-event-stream";
import { monotonicMs, type TimedText } from "./timing";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { join: { type: "boolean", default: false }, "warm-up": { type: "string" } },
});
const [baseURL, ...models] = positionals;
if (!baseURL || models.length === 0) {
  console.error("usage: sdk-reader.ts [--join] [--warm-up <model>] <baseURL> <model> [<model> …]");
  process.exit(2);
}

const provider = createOpenAICompatible({
  name: "compatible",
  baseURL,
  includeUsage: true,
  ...(options.join ? { fetch: coalescingFetch("openai-chat") } : {}),
});

async function read(model: string): Promise<{ model: string; deltas: TimedText[] }> {
  const result = streamText({
    model: provider.chatModel(model),
    prompt: "Stream, please.",
    maxRetries: 0,
  });
  const deltas: TimedText[] = [];
  for await (const part of result.fullStream) {
    if (part.type === "text-delta" && part.text)
      deltas.push({ text: part.text, at: monotonicMs() });
    if (part.type === "error") throw part.error;
  }
  return { model, deltas };
}

if (options["warm-up"]) await read(options["warm-up"]);
const runs = await Promise.all(models.map(read));
process.stdout.write(JSON.stringify(runs));
