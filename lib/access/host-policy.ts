/**
 * Which hosts the builder and its API answer for, and which peers may speak for the browser
 * through `X-Forwarded-*`. "Our own origin" is derived from this configuration and never from a
 * request's `Host` alone: a DNS-rebinding page reaches 127.0.0.1 under its own host name, and
 * anything built from its `Host` would call that page's origin ours. Pure (no Node or Next
 * imports) so the proxy, the start-up check and tests share it.
 */
export interface HostPolicy {
  /** Lower-case host names (no port) the builder answers for. */
  hostNames: ReadonlySet<string>;
  /** Lower-case `host:port` entries: allowed only on that port. */
  hostsWithPort: ReadonlySet<string>;
  /** Peer addresses whose `X-Forwarded-Host` / `X-Forwarded-Proto` are believed. */
  trustedProxies: ReadonlySet<string>;
}

export interface HostPolicySettings {
  publicUrl?: string;
  allowedHosts?: string;
  trustedProxies?: string;
}

const loopbackHostNames = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** Builds the policy from PATCHWORK_PUBLIC_URL, PATCHWORK_ALLOWED_HOSTS and PATCHWORK_TRUSTED_PROXIES. */
export function createHostPolicy(settings: HostPolicySettings): HostPolicy {
  const hostNames = new Set(loopbackHostNames);
  const hostsWithPort = new Set<string>();
  const add = (entry: string) => {
    const host = entry.trim().toLowerCase();
    if (!host) return;
    if (hasPort(host)) hostsWithPort.add(host);
    else hostNames.add(host);
  };
  if (settings.publicUrl) add(new URL(settings.publicUrl).host);
  for (const entry of (settings.allowedHosts ?? "").split(",")) add(entry);
  const trustedProxies = new Set(
    (settings.trustedProxies ?? "")
      .split(",")
      .map((entry) => normalizeAddress(entry.trim()))
      .filter(Boolean),
  );
  return { hostNames, hostsWithPort, trustedProxies };
}

/** Reads the policy's settings from the environment (the proxy has no validated environment). */
export function hostPolicyFromEnvironment(environment: Record<string, string | undefined>) {
  return createHostPolicy({
    publicUrl: environment.PATCHWORK_PUBLIC_URL || undefined,
    allowedHosts: environment.PATCHWORK_ALLOWED_HOSTS,
    trustedProxies: environment.PATCHWORK_TRUSTED_PROXIES,
  });
}

function hasPort(host: string): boolean {
  return /:\d+$/.test(host) && (!host.includes("]") || /\]:\d+$/.test(host)) && host !== "::1";
}

/** Strips the port from `host[:port]`, keeping IPv6 brackets. */
export function hostNameOf(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  const colon = lower.lastIndexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

/** True when the builder answers for this `Host` value. */
export function isAllowedHost(policy: HostPolicy, host: string | null | undefined): boolean {
  if (!host) return false;
  const lower = host.trim().toLowerCase();
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(lower)) return false;
  return policy.hostNames.has(hostNameOf(lower)) || policy.hostsWithPort.has(lower);
}

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) and plain forms compare equal. */
export function normalizeAddress(address: string | undefined | null): string {
  if (!address) return "";
  const lower = address.toLowerCase();
  return lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice(7) : lower;
}

export interface RequestHost {
  /** The `host[:port]` the browser used. */
  host: string | null;
  /** `http` or `https`. */
  protocol: string;
}

/**
 * The host and scheme the browser used: the `Host` header, unless the peer is a trusted proxy,
 * whose `X-Forwarded-Host` / `X-Forwarded-Proto` then speak for the browser.
 */
export function resolveRequestHost(
  policy: HostPolicy,
  request: {
    headers: { get(name: string): string | null };
    peerAddress: string | null;
    protocol: string;
  },
): RequestHost {
  const fromTrustedProxy =
    request.peerAddress !== null &&
    policy.trustedProxies.has(normalizeAddress(request.peerAddress));
  if (fromTrustedProxy) {
    const forwardedHost = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    const forwardedProtocol = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    return {
      host: forwardedHost || request.headers.get("host"),
      protocol: forwardedProtocol === "https" ? "https" : request.protocol,
    };
  }
  return { host: request.headers.get("host"), protocol: request.protocol };
}

/**
 * True when `origin` is the builder's own: the scheme and host the (already allowed) request
 * came in on. A loopback page on another port is another origin and is not trusted.
 */
export function isOwnOrigin(policy: HostPolicy, origin: string, requestHost: RequestHost): boolean {
  if (!requestHost.host || !isAllowedHost(policy, requestHost.host)) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return (
    parsed.protocol === `${requestHost.protocol}:` &&
    parsed.host.toLowerCase() === requestHost.host.toLowerCase()
  );
}

/** The client's address: the peer, or the first forwarded address when the peer is a trusted proxy. */
export function resolveClientAddress(
  policy: HostPolicy,
  request: { headers: { get(name: string): string | null }; peerAddress: string | null },
): string {
  const peer = normalizeAddress(request.peerAddress);
  if (peer && policy.trustedProxies.has(peer)) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return normalizeAddress(forwarded);
  }
  return peer || "unknown";
}
