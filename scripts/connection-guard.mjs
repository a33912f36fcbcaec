// Guards the HTTP server by the addresses its connections really use, not by its arguments:
// `npm start -- --hostname 0.0.0.0` (or `-H`, or `next start` run directly) once bypassed a check
// made on HOST alone. Plain JavaScript so the start script (before Next loads) and the server's
// instrumentation hook (after) install the same code. Installed once per process.
import net from "node:net";

export const peerAddressHeader = "x-patchwork-peer-address";
export const localAddressHeader = "x-patchwork-local-address";

const installedKey = Symbol.for("patchwork.connectionGuard");

/** @param {string | undefined} address */
export function isLoopbackAddress(address) {
  if (!address) return false;
  const lower = address.toLowerCase();
  const plain = lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice(7) : lower;
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** @param {{ address: string } | string | null} bound */
function describeBound(bound) {
  return typeof bound === "string" ? bound : bound ? bound.address : "an unknown address";
}

export function refusalMessage(address) {
  return (
    `Refusing to serve: Patchwork is listening on ${address}, beyond this machine, and ` +
    "PATCHWORK_AUTH_TOKEN is not set. Set PATCHWORK_AUTH_TOKEN to a long random secret " +
    "(e.g. `openssl rand -hex 32`) to require sign-in, or bind 127.0.0.1."
  );
}

/**
 * Patches every net.Server's `emit` (http and https servers inherit it):
 * - `listening` on a non-loopback address without an auth token stops the process;
 * - each request gets the connection's peer and local addresses as headers (a client's own copies
 *   are dropped), so the proxy can trust `X-Forwarded-*` only from configured proxies;
 * - a request that arrived on a non-loopback address without a token is refused outright, for
 *   servers that were listening before this was installed.
 * @param {{ onExposedListen?: (message: string) => void }} options  called (and the server
 *   closed) when it starts listening beyond loopback without a token; absent, nothing is checked
 *   at listen time (the server was already listening when the guard was installed).
 */
export function installConnectionGuard(options) {
  const holder = /** @type {Record<symbol, boolean>} */ (/** @type {unknown} */ (globalThis));
  if (holder[installedKey]) return;
  holder[installedKey] = true;
  const tokenSet = () => Boolean(process.env.PATCHWORK_AUTH_TOKEN);
  const originalEmit = net.Server.prototype.emit;
  net.Server.prototype.emit = function guardedEmit(event, ...args) {
    if (event === "listening" && options.onExposedListen && !tokenSet()) {
      const bound = this.address();
      const address = typeof bound === "object" && bound ? bound.address : null;
      if (address !== null && !isLoopbackAddress(address)) {
        this.close();
        options.onExposedListen(refusalMessage(describeBound(bound)));
        return true;
      }
    }
    if (event === "request") {
      const [request, response] =
        /** @type {[import("node:http").IncomingMessage, import("node:http").ServerResponse]} */ (
          args
        );
      const socket = request.socket;
      delete request.headers[peerAddressHeader];
      delete request.headers[localAddressHeader];
      if (socket?.remoteAddress) request.headers[peerAddressHeader] = socket.remoteAddress;
      if (socket?.localAddress) request.headers[localAddressHeader] = socket.localAddress;
      if (socket?.localAddress && !isLoopbackAddress(socket.localAddress) && !tokenSet()) {
        response.writeHead(403, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            error: { code: "UNAUTHORIZED", message: refusalMessage(socket.localAddress) },
          }),
        );
        return true;
      }
    }
    return originalEmit.call(this, event, ...args);
  };
}
