/**
 * The stream benchmark's floor: the least a server process in the path can do. A `node:http`
 * server on 127.0.0.1 takes the same chat-completion request a client would send the model, sends
 * it upstream, and writes every chunk of the answer to its client as it arrives, untouched.
 *
 * With `--store <pglite|postgres://…>` it also does what PRODUCT.md asks of every run event
 * before anyone sees it: each chunk is committed to a table first. Chunks that arrive while a
 * statement is in flight join the next one (group commit, one multi-row INSERT), as Patchwork's
 * batcher does; nothing else of Patchwork (no framework, no AI SDK, no fan-out) is in the path.
 *
 * So Patchwork's added latency over the raw read splits into what any relay costs on this
 * machine (this process, plain), what committing costs (this process, storing), and the rest,
 * which is Patchwork's own.
 *
 * Usage: tsx bench/stream/relay.ts [--store pglite|postgres://…] <upstream base URL>
 * → prints `Relay listening on <url>` and serves until SIGTERM.
 */
import fs from "node:fs";
import { createServer, request as httpRequest, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { store: { type: "string" } },
});
const [upstreamBase] = positionals;
if (!upstreamBase) {
  console.error("usage: relay.ts [--store pglite|postgres://…] <upstream base URL>");
  process.exit(2);
}
const upstream = new URL(upstreamBase);

/** Inserts one row per chunk, all chunks in one statement, and resolves once it is committed. */
type InsertChunks = (rows: { stream: number; text: string }[]) => Promise<void>;

async function openStore(
  target: string,
): Promise<{ insert: InsertChunks; close(): Promise<void> }> {
  const create = "create table if not exists relay_chunk (stream int not null, body text not null)";
  if (target === "pglite") {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "relay-pglite-"));
    const database = await PGlite.create(directory);
    await database.exec(create);
    return {
      async insert(rows) {
        const values = rows.map((_, index) => `($${index * 2 + 1}, $${index * 2 + 2})`).join(", ");
        await database.query(
          `insert into relay_chunk (stream, body) values ${values}`,
          rows.flatMap((row) => [row.stream, row.text]),
        );
      },
      close: () => database.close(),
    };
  }
  const sql = postgres(target, { max: 4, onnotice: () => {} });
  await sql.unsafe(create);
  await sql.unsafe("truncate relay_chunk");
  return {
    async insert(rows) {
      await sql`insert into relay_chunk ${sql(rows.map((row) => ({ stream: row.stream, body: row.text })))}`;
    },
    close: () => sql.end(),
  };
}

const store = options.store ? await openStore(options.store) : undefined;

/** Group commit: chunks wait here while a statement is in flight, then go together. */
let pending: { stream: number; text: string; response: ServerResponse }[] = [];
let inFlight = false;

async function flush(): Promise<void> {
  if (inFlight || pending.length === 0 || !store) return;
  inFlight = true;
  const batch = pending;
  pending = [];
  await store.insert(batch.map(({ stream, text }) => ({ stream, text })));
  for (const { response, text } of batch) response.write(text);
  inFlight = false;
  void flush();
}

let nextStream = 0;
const server = createServer({ noDelay: true }, (incoming, outgoing) => {
  const stream = nextStream++;
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: `${upstream.pathname.replace(/\/+$/, "")}${incoming.url}`,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        outgoing.flushHeaders();
        answer.setEncoding("utf8");
        answer.on("data", (text: string) => {
          if (!store) {
            outgoing.write(text);
            return;
          }
          pending.push({ stream, text, response: outgoing });
          void flush();
        });
        answer.on("end", async () => {
          // Whatever is still waiting to be committed goes out before the end.
          while (store && (inFlight || pending.some((chunk) => chunk.response === outgoing)))
            await new Promise((resolve) => setImmediate(resolve));
          outgoing.end();
        });
      },
    );
    forwarded.setNoDelay(true);
    forwarded.on("error", () => outgoing.destroy());
    forwarded.end(Buffer.concat(chunks));
  });
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Relay listening on http://127.0.0.1:${port}`);
});
process.once("SIGTERM", async () => {
  server.close();
  server.closeAllConnections();
  await store?.close();
  process.exit(0);
});
