/**
 * The stream benchmark's second baseline, run as a process of its own: reads the model server
 * directly with the AI SDK exactly as Patchwork's native agent does (`createOpenAICompatible`,
 * `streamText`, `fullStream`), one stream per model name, all at once, and prints each text
 * delta with the monotonic clock reading when the SDK handed it over. What Patchwork adds beyond
 * this is its own work: storing, fanning out and serving the events.
 *
 * Usage: tsx bench/stream/sdk-reader.ts <baseURL> <model> [<model> …]  → JSON on stdout.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";
import { monotonicMs, type TimedText } from "./timing";

const [baseURL, ...models] = process.argv.slice(2);
if (!baseURL || models.length === 0) {
  console.error("usage: sdk-reader.ts <baseURL> <model> [<model> …]");
  process.exit(2);
}

const provider = createOpenAICompatible({ name: "compatible", baseURL, includeUsage: true });

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

const runs = await Promise.all(models.map(read));
process.stdout.write(JSON.stringify(runs));
