import type { Readable, Writable } from "node:stream";

/** A JSON-RPC error answer; `code` -32601 is "method not found". */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }
}

/** The connection closed (the process exited) before the answer came. */
export class JsonRpcConnectionClosed extends Error {
  constructor(readonly method: string) {
    super(`the connection closed before "${method}" was answered`);
    this.name = "JsonRpcConnectionClosed";
  }
}

export const methodNotFound = -32601;

type RequestId = string | number;

export interface JsonRpcHandlers {
  /** A notification from the other side (no answer expected). */
  onNotification(method: string, params: unknown): void;
  /**
   * A request from the other side: resolve with the result, or throw a {@link JsonRpcError}
   * (anything else thrown answers -32603). Several may be in flight at once.
   */
  onRequest(method: string, params: unknown, id: RequestId): Promise<unknown>;
  /** A line that is not a JSON-RPC message (logged, never fatal). */
  onUnparsableLine?(line: string): void;
}

/**
 * JSON-RPC over newline-delimited JSON on a pair of streams, as `codex app-server` speaks it
 * (messages carry no `"jsonrpc"` field, and Codex accepts them without one). Requests are matched
 * to answers by id; everything else goes to the handlers. The connection never throws on bad
 * input: a broken line is reported and skipped, and a closed stream rejects what is pending.
 */
export class JsonRpcConnection {
  private nextId = 1;
  private readonly pending = new Map<
    RequestId,
    { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private buffer = "";
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly handlers: JsonRpcHandlers,
  ) {
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => this.receive(chunk));
    input.on("end", () => this.close());
    input.on("close", () => this.close());
    // A write after the peer died is reported by close(), not thrown from the stream.
    output.on("error", () => this.close());
  }

  /** Sends a request and resolves with its result (rejects with a JsonRpcError answer). */
  request<Result = unknown>(method: string, params: unknown): Promise<Result> {
    if (this.closed) return Promise.reject(new JsonRpcConnectionClosed(method));
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      this.send({ id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Rejects everything pending; later requests reject at once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      entry.reject(new JsonRpcConnectionClosed(entry.method));
    }
  }

  private send(message: object): void {
    if (this.closed || this.output.destroyed) return;
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (line) this.dispatch(line);
      newline = this.buffer.indexOf("\n");
    }
  }

  private dispatch(line: string): void {
    let message: {
      id?: RequestId;
      method?: unknown;
      params?: unknown;
      result?: unknown;
      error?: { code?: unknown; message?: unknown; data?: unknown };
    };
    try {
      message = JSON.parse(line);
    } catch {
      this.handlers.onUnparsableLine?.(line);
      return;
    }
    if (!message || typeof message !== "object") {
      this.handlers.onUnparsableLine?.(line);
      return;
    }
    const hasId = typeof message.id === "string" || typeof message.id === "number";
    if (typeof message.method === "string") {
      if (hasId) this.answer(message.id as RequestId, message.method, message.params);
      else this.handlers.onNotification(message.method, message.params);
      return;
    }
    if (!hasId) {
      this.handlers.onUnparsableLine?.(line);
      return;
    }
    const entry = this.pending.get(message.id as RequestId);
    if (!entry) return; // An answer to a request we no longer wait for.
    this.pending.delete(message.id as RequestId);
    if (message.error) {
      entry.reject(
        new JsonRpcError(
          typeof message.error.code === "number" ? message.error.code : -32603,
          typeof message.error.message === "string" ? message.error.message : "unknown error",
          message.error.data,
        ),
      );
    } else entry.resolve(message.result);
  }

  private answer(id: RequestId, method: string, params: unknown): void {
    this.handlers.onRequest(method, params, id).then(
      (result) => this.send({ id, result: result ?? null }),
      (error: unknown) =>
        this.send({
          id,
          error:
            error instanceof JsonRpcError
              ? { code: error.code, message: error.message }
              : { code: -32603, message: error instanceof Error ? error.message : String(error) },
        }),
    );
  }
}
