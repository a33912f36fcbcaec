import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  JsonRpcConnection,
  JsonRpcConnectionClosed,
  JsonRpcError,
  type JsonRpcHandlers,
  methodNotFound,
} from "./json-rpc-connection";

/** A connection wired to a peer we play by hand: what we write to `fromPeer` it receives. */
function connect(handlers: Partial<JsonRpcHandlers> = {}) {
  const fromPeer = new PassThrough();
  const toPeer = new PassThrough();
  const sent: unknown[] = [];
  toPeer.setEncoding("utf8");
  let partial = "";
  toPeer.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) sent.push(JSON.parse(line));
  });
  const notifications: [string, unknown][] = [];
  const unparsable: string[] = [];
  const connection = new JsonRpcConnection(fromPeer, toPeer, {
    onNotification: (method, params) => notifications.push([method, params]),
    onRequest: async () => {
      throw new JsonRpcError(methodNotFound, "no such method");
    },
    onUnparsableLine: (line) => unparsable.push(line),
    ...handlers,
  });
  const peerSays = (message: object | string) =>
    fromPeer.write(typeof message === "string" ? message : `${JSON.stringify(message)}\n`);
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { connection, fromPeer, sent, notifications, unparsable, peerSays, settle };
}

describe("JsonRpcConnection", () => {
  it("matches answers to requests by id, without a jsonrpc field, in any order", async () => {
    const { connection, sent, peerSays, settle } = connect();
    const first = connection.request("thread/start", { cwd: "/w" });
    const second = connection.request("turn/start", { threadId: "t" });
    await settle();
    expect(sent).toEqual([
      { id: 1, method: "thread/start", params: { cwd: "/w" } },
      { id: 2, method: "turn/start", params: { threadId: "t" } },
    ]);
    peerSays({ id: 2, result: { turn: { id: "u" } } });
    peerSays({ id: 1, result: { thread: { id: "t" } } });
    await expect(first).resolves.toEqual({ thread: { id: "t" } });
    await expect(second).resolves.toEqual({ turn: { id: "u" } });
  });

  it("rejects with the peer's error and keeps going", async () => {
    const { connection, peerSays } = connect();
    const failing = connection.request("thread/resume", { threadId: "gone" });
    peerSays({ id: 1, error: { code: -32600, message: "no rollout found" } });
    const error = await failing.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32600, message: "no rollout found" });
    const next = connection.request("initialize", {});
    peerSays({ id: 2, result: {} });
    await expect(next).resolves.toEqual({});
  });

  it("joins a message split across chunks and reports broken lines without stopping", async () => {
    const { connection, notifications, unparsable, peerSays, settle } = connect();
    peerSays('{"method":"item/agentMessage/delta","par');
    peerSays('ams":{"delta":"Hi"}}\nnot json\n[1,2]\n');
    peerSays({ method: "turn/completed", params: { turn: { status: "completed" } } });
    await settle();
    expect(notifications).toEqual([
      ["item/agentMessage/delta", { delta: "Hi" }],
      ["turn/completed", { turn: { status: "completed" } }],
    ]);
    expect(unparsable).toEqual(["not json", "[1,2]"]);
    expect(connection).toBeDefined();
  });

  it("answers the peer's requests with the handler's result or its error", async () => {
    const { sent, peerSays, settle } = connect({
      onRequest: async (method, params) => {
        if (method === "item/fileChange/requestApproval") return { decision: "accept", params };
        throw new JsonRpcError(methodNotFound, `unsupported: ${method}`);
      },
    });
    peerSays({ id: "a", method: "item/fileChange/requestApproval", params: { itemId: "i" } });
    peerSays({ id: 7, method: "item/tool/call", params: {} });
    await settle();
    await settle();
    expect(sent).toEqual(
      expect.arrayContaining([
        { id: "a", result: { decision: "accept", params: { itemId: "i" } } },
        { id: 7, error: { code: -32601, message: "unsupported: item/tool/call" } },
      ]),
    );
  });

  it("rejects pending and later requests once the stream ends", async () => {
    const { connection, fromPeer } = connect();
    const pending = connection.request("turn/interrupt", {});
    fromPeer.end();
    await expect(pending).rejects.toBeInstanceOf(JsonRpcConnectionClosed);
    await expect(connection.request("thread/start", {})).rejects.toBeInstanceOf(
      JsonRpcConnectionClosed,
    );
  });
});
