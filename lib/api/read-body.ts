import "server-only";
import { PatchworkError } from "@/lib/errors";
import { formatBytes } from "@/lib/workspace/limits";

/**
 * Reads a request body, refusing it as soon as it passes `limit` bytes. `request.text()` and
 * `arrayBuffer()` buffer whatever arrives: a chunked upload has no Content-Length to check first,
 * so a client could make the server hold gigabytes before any size check ran.
 */
export async function readBodyWithLimit(
  request: Request,
  { limit, what }: { limit: number; what: string },
): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw bodyTooLarge({ size: declared, limit, what });
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw bodyTooLarge({ size, limit, what });
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function bodyTooLarge({ size, limit, what }: { size: number; limit: number; what: string }) {
  return new PatchworkError("PAYLOAD_TOO_LARGE", `${what} are limited to ${formatBytes(limit)}.`, {
    details: { size, limit },
  });
}
