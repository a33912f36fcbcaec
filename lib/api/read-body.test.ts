import { describe, expect, it } from "vitest";
import { PatchworkError } from "@/lib/errors";
import { readBodyWithLimit } from "./read-body";

/** A body that arrives in pieces with no Content-Length, as a chunked upload does. */
function chunkedRequest(pieces: Uint8Array[], onPull?: () => void): Request {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      onPull?.();
      if (index < pieces.length) controller.enqueue(pieces[index++]);
      else controller.close();
    },
  });
  return new Request("http://127.0.0.1/upload", {
    method: "POST",
    body,
    duplex: "half",
  } as RequestInit);
}

describe("readBodyWithLimit", () => {
  it("joins the pieces of a body within the limit", async () => {
    const body = await readBodyWithLimit(
      chunkedRequest([new Uint8Array([1, 2]), new Uint8Array([3])]),
      { limit: 3, what: "Uploads" },
    );
    expect([...body]).toEqual([1, 2, 3]);
  });

  it("stops reading a chunked body once it passes the limit", async () => {
    let pulls = 0;
    const pieces = Array.from({ length: 100 }, () => new Uint8Array(1024));
    const error = await readBodyWithLimit(
      chunkedRequest(pieces, () => pulls++),
      { limit: 4096, what: "Uploads" },
    ).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PatchworkError);
    expect(error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: "Uploads are limited to 4.0 KiB.",
      details: { size: 5120, limit: 4096 },
    });
    expect(pulls).toBeLessThan(10);
  });

  it("refuses a declared length over the limit without reading", async () => {
    const request = new Request("http://127.0.0.1/upload", {
      method: "POST",
      body: "x".repeat(10),
      headers: { "content-length": String(8 * 1024 * 1024) },
    });
    await expect(
      readBodyWithLimit(request, { limit: 4 * 1024 * 1024, what: "Request bodies" }),
    ).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: "Request bodies are limited to 4.0 MiB.",
    });
    expect(request.bodyUsed).toBe(false);
  });
});
