const secretVariableNames = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENAI_COMPATIBLE_API_KEY",
  "PATCHWORK_AUTH_TOKEN",
  "DATABASE_URL",
];

/**
 * Replaces every configured secret in a value with "[redacted]". Provider errors sometimes echo
 * request details; this is the last guard before anything reaches events or logs.
 */
export function redactSecrets<Value>(
  value: Value,
  environment: NodeJS.ProcessEnv = process.env,
): Value {
  const secrets = secretVariableNames
    .map((name) => environment[name])
    .filter((secret): secret is string => typeof secret === "string" && secret.length >= 6);
  if (secrets.length === 0) return value;
  return redactValue(value, secrets) as Value;
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
