import { redactSecrets } from "./redact-secrets";

/**
 * Logs a server-side failure with every configured secret redacted. Provider errors often echo
 * request details (an "incorrect API key: sk-…" message included), and logs outlive requests.
 */
export function logServerError(context: string, error: unknown): void {
  const detail =
    error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(`[patchwork] ${context}: ${redactSecrets(detail)}`);
}
