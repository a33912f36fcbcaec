import "server-only";

/**
 * Model discovery is a plain GET with a short deadline: the AI SDK has no "list models" call,
 * and `GET /api/models` must stay fast when an endpoint is down. Failures become short,
 * secret-free sentences that can be shown to the person as the reason a model is unavailable.
 */
export async function fetchDiscoveryJson({
  url,
  apiKey,
  headers,
  timeoutMs,
}: {
  url: string;
  /** Sent as a bearer token (OpenAI-style endpoints). */
  apiKey?: string;
  /** For providers that take their key in a header of their own (Anthropic, Google). */
  headers?: Record<string, string>;
  timeoutMs: number;
}): Promise<{ ok: true; body: unknown } | { ok: false; problem: string }> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: {
        accept: "application/json",
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...headers,
      },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    return { ok: false, problem: describeFetchFailure(error, timeoutMs) };
  }
  if (!response.ok) {
    // An unread body would keep the socket busy until it is garbage-collected.
    await response.body?.cancel();
    const statusText = response.statusText ? ` ${response.statusText}` : "";
    return { ok: false, problem: `answered ${response.status}${statusText}` };
  }
  try {
    return { ok: true, body: await response.json() };
  } catch (error) {
    if (isTimeout(error)) return { ok: false, problem: `did not answer within ${timeoutMs} ms` };
    return { ok: false, problem: "did not answer with JSON" };
  }
}

/** A URL fit for a message: no credentials, query or fragment, which may hold tokens. */
export function describeEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "the configured address";
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (isTimeout(error)) return `did not answer within ${timeoutMs} ms`;
  // fetch refuses such URLs outright; its own message would repeat the password.
  if (error instanceof TypeError && error.message.includes("includes credentials")) {
    return "has a user name or password in its address, which is not supported (use the API key variable)";
  }
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (code === "ECONNREFUSED") return "refused the connection";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "could not be found (DNS)";
  if (typeof code === "string") return `could not be reached (${code})`;
  return "could not be reached";
}
