import { z } from "zod";

const booleanFlag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

/** On unless set to 0 or false. */
const booleanFlagOnByDefault = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((value) => value !== "0" && value !== "false");

const positiveInteger = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .transform((value) => value ?? fallback);

/** A comma-separated list whose every entry must match `pattern`. */
const commaList = (pattern: RegExp, message: string) =>
  z
    .string()
    .optional()
    .refine(
      (value) =>
        (value ?? "")
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean)
          .every((entry) => pattern.test(entry)),
      message,
    );

const environmentSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PATCHWORK_DATA_DIR: z.string().default(".data"),
  PATCHWORK_AUTH_TOKEN: z
    .string()
    .min(16, "PATCHWORK_AUTH_TOKEN must be at least 16 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PATCHWORK_PUBLIC_URL: z
    .string()
    .url("PATCHWORK_PUBLIC_URL must be a URL such as https://patchwork.example.com")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PATCHWORK_ALLOWED_HOSTS: commaList(
    /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/,
    "PATCHWORK_ALLOWED_HOSTS must be comma-separated host names, each optionally with :port",
  ),
  PATCHWORK_TRUSTED_PROXIES: commaList(
    /^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)$/,
    "PATCHWORK_TRUSTED_PROXIES must be comma-separated IP addresses of your reverse proxies",
  ),
  /**
   * Encrypts provider keys saved from the settings page; without it a key is generated into the
   * data directory. Set the same value on every process that shares a DATABASE_URL.
   */
  PATCHWORK_SECRET_KEY: z
    .string()
    .min(16, "PATCHWORK_SECRET_KEY must be at least 16 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().optional(),
  OPENAI_COMPATIBLE_BASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  OPENAI_COMPATIBLE_API_KEY: z.string().optional(),
  OPENAI_COMPATIBLE_MODELS: z.string().optional(),
  OLLAMA_BASE_URL: z.string().url().default("http://127.0.0.1:11434"),
  PATCHWORK_DISABLE_OLLAMA_DETECTION: booleanFlag,
  APPS_CODING_AGENT_MAX_TOOL_ITERATIONS: positiveInteger(8),
  /** A run stops with CODING_AGENT_BUDGET_EXCEEDED once its known cost passes this (US dollars). */
  APPS_CODING_AGENT_MAX_COST_USD: z.coerce
    .number()
    .positive()
    .optional()
    .transform((value) => value ?? 2),
  APPS_CODING_AGENT_TOOL_TIMEOUT_S: positiveInteger(120),
  APPS_CODING_AGENT_MESSAGE_BUDGET_CHARS: positiveInteger(60_000),
  APPS_CODING_AGENT_AUTO_VERIFY_PATCH: booleanFlag,
  /** Every run that changed files ends with a check (bundle, types, the app in Chromium). */
  APPS_CODING_AGENT_AUTO_VERIFY: booleanFlagOnByDefault,
  /** How many times a failed end-of-run check is handed back to the engine to fix. */
  APPS_CODING_AGENT_VERIFY_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .transform((value) => value ?? 2),
  /** The Chromium the check loads apps in (default: Debian's /usr/bin/chromium). */
  PATCHWORK_CHROMIUM_PATH: z.string().optional(),
  /** Another npm registry for app packages (a mirror); npm's default when unset. */
  PATCHWORK_NPM_REGISTRY: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /**
   * What this process does with DATABASE_URL set: `all` serves and executes runs, `web` only
   * serves (runs go to workers), `worker` only executes. With PGlite everything is one process.
   */
  PATCHWORK_ROLE: z.enum(["all", "web", "worker"]).default("all"),
  /** How many runs one worker process executes at once. */
  PATCHWORK_WORKER_CONCURRENCY: positiveInteger(4),
  /** A run's lease: its worker renews it every third of this; unrenewed, the run is reclaimed. */
  PATCHWORK_RUN_LEASE_S: positiveInteger(30),
  /** A rate limit that resets sooner than this pauses the run; a later one fails it. */
  APPS_CODING_AGENT_MAX_RATE_LIMIT_WAIT_S: positiveInteger(900),
  APPS_CODING_AGENT_ENABLE_LEGACY_WRITE_FILE: booleanFlag,
  APPS_CODING_AGENT_RUN_TIMEOUT_S: positiveInteger(1800),
  APPS_CODING_AGENT_APPROVAL_TIMEOUT_S: positiveInteger(300),
  PATCHWORK_CODEX_BIN: z.string().optional(),
  PATCHWORK_OPENCODE_BIN: z.string().optional(),
  PATCHWORK_CLAUDE_BIN: z.string().optional(),
  /** Test-only: registers the scripted test engine (never set in production). */
  PATCHWORK_TEST_ENGINES: booleanFlag,
});

export type Environment = z.infer<typeof environmentSchema>;

let cached: Environment | undefined;

/** Reads and validates the environment once; a bad value stops the server with the variable's name. */
export function getEnvironment(): Environment {
  if (cached) return cached;
  const parsed = environmentSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid environment:\n  ${problems.join("\n  ")}`);
  }
  cached = parsed.data;
  return cached;
}

/** Tests change the environment between cases; this forgets the cached read. */
export function resetEnvironmentForTests(): void {
  cached = undefined;
}
