/** The variables secrets are read from; `process.env` in the server. */
type Environment = Readonly<Record<string, string | undefined>>;

const secretVariableNames = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENAI_COMPATIBLE_API_KEY",
  "PATCHWORK_AUTH_TOKEN",
  "DATABASE_URL",
  "PATCHWORK_SECRET_KEY",
];

/**
 * Secrets that live outside the environment (provider keys saved from the settings page). On
 * `globalThis`, because Next.js may load this module once per route bundle.
 */
const secretsHolder = globalThis as { patchworkRememberedSecrets?: Set<string> };
secretsHolder.patchworkRememberedSecrets ??= new Set<string>();
const rememberedSecrets = secretsHolder.patchworkRememberedSecrets;

/** Adds a secret to the ones redacted from events and logs, from now on in this process. */
export function rememberSecret(secret: string): void {
  if (secret.length >= 6) rememberedSecrets.add(secret);
}

/**
 * Replaces every configured secret in a value with "[redacted]". Provider errors sometimes echo
 * request details; this is the last guard before anything reaches events or logs.
 */
export function redactSecrets<Value>(value: Value, environment: Environment = process.env): Value {
  const secrets = configuredSecrets(environment);
  if (secrets.length === 0) return value;
  return redactValue(value, secrets) as Value;
}

/**
 * Redacts a text that arrives in pieces (model deltas), where a secret may be split across two
 * pieces and so escape `redactSecrets` on each. `push` returns what is safe to send now and holds
 * back only a tail that could still become a secret; `end` releases that tail, redacted.
 */
export class SecretStreamRedactor {
  private held = "";
  private readonly secrets: string[];

  constructor(environment: Environment = process.env) {
    this.secrets = configuredSecrets(environment);
  }

  push(text: string): string {
    if (this.secrets.length === 0) return text;
    const redacted = redactValue(this.held + text, this.secrets) as string;
    const keep = this.longestSecretPrefixSuffix(redacted);
    this.held = redacted.slice(redacted.length - keep);
    return redacted.slice(0, redacted.length - keep);
  }

  /** The held tail, released because the text ended (it was never completed into a secret). */
  end(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }

  /**
   * Length of the longest end of `text` that is the start of some secret (a possible split).
   * Only places where a secret's first character occurs are tried: this runs on every delta.
   */
  private longestSecretPrefixSuffix(text: string): number {
    let longest = 0;
    for (const secret of this.secrets) {
      const from = Math.max(0, text.length - secret.length + 1);
      for (
        let start = text.indexOf(secret[0], from);
        start !== -1;
        start = text.indexOf(secret[0], start + 1)
      ) {
        const length = text.length - start;
        if (length > longest && secret.startsWith(text.slice(start))) longest = length;
        if (length <= longest) break;
      }
    }
    return longest;
  }
}

function configuredSecrets(environment: Environment): string[] {
  const fromEnvironment = secretVariableNames
    .map((name) => environment[name])
    .filter((secret): secret is string => typeof secret === "string" && secret.length >= 6);
  return [...new Set([...fromEnvironment, ...rememberedSecrets])];
}

function redactValue(value: unknown, secrets: string[]): unknown {
  if (typeof value === "string") {
    let result = value;
    for (const secret of secrets) result = result.split(secret).join("[redacted]");
    return result;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactValue(item, secrets)]),
    );
  }
  return value;
}
