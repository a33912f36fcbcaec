import "server-only";
import path from "node:path";
import { type Database, getDatabase } from "@/db/client";
import {
  deleteProviderSetting,
  listProviderSettings,
  upsertProviderSetting,
} from "@/db/queries/provider-settings";
import type { ProviderSettingId, ProviderSettingRow } from "@/db/schema";
import { type Environment, getEnvironment } from "@/lib/env";
import { PatchworkError } from "@/lib/errors";
import { logServerError } from "@/lib/log";
import { rememberSecret } from "@/lib/redact-secrets";
import {
  decryptSecret,
  encryptSecret,
  loadSecretKey,
  SecretBoxError,
  secretHint,
} from "@/lib/secrets/secret-box";
import { parseModelList } from "./compatible-models";
import { describeEndpoint } from "./fetch-discovery-json";

/**
 * Providers added from the settings page, laid over the environment. Every model module reads
 * its provider variables through {@link providerEnvironment}, so a saved key works at once,
 * without a restart, exactly as if it had been set in the environment — and a variable that is
 * set in the environment wins over a saved one (an operator's configuration is never silently
 * replaced from the UI).
 */

/** The environment variables each provider's settings stand in for. */
export const providerVariables = {
  openai: { displayName: "OpenAI", key: "OPENAI_API_KEY" },
  anthropic: { displayName: "Anthropic", key: "ANTHROPIC_API_KEY" },
  google: { displayName: "Google", key: "GOOGLE_GENERATIVE_AI_API_KEY" },
  compatible: {
    displayName: "OpenAI-compatible endpoint",
    key: "OPENAI_COMPATIBLE_API_KEY",
    baseUrl: "OPENAI_COMPATIBLE_BASE_URL",
    models: "OPENAI_COMPATIBLE_MODELS",
  },
} as const satisfies Record<
  ProviderSettingId,
  { displayName: string; key: string; baseUrl?: string; models?: string }
>;

interface StoredProvider {
  provider: ProviderSettingId;
  /** Decrypted, in this process's memory only. */
  apiKey: string | null;
  apiKeyHint: string | null;
  baseUrl: string | null;
  models: string | null;
  updatedAt: Date;
  /** Why the saved key cannot be used (it does not decrypt with this process's key). */
  problem: string | null;
}

interface Snapshot {
  providers: Map<ProviderSettingId, StoredProvider>;
  loadedAt: number;
}

/** How long a process trusts its copy; other processes' saves reach it within this. */
const snapshotMaxAgeMs = 1_000;

// On globalThis: Next.js may load this module once per route bundle, and all must agree.
const holder = globalThis as {
  patchworkProviderSettings?: Snapshot;
  patchworkProviderRefresh?: Promise<Snapshot>;
  patchworkSecretKey?: Buffer;
};

function secretKey(environment: Environment = getEnvironment()): Buffer {
  holder.patchworkSecretKey ??= loadSecretKey({
    secret: environment.PATCHWORK_SECRET_KEY,
    dataDirectory: path.resolve(environment.PATCHWORK_DATA_DIR),
  });
  return holder.patchworkSecretKey;
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/**
 * The environment with saved providers filled in where the environment leaves them unset. The
 * compatible endpoint is taken whole from one side: a saved key is never sent to an endpoint the
 * environment names, nor the environment's key to a saved endpoint.
 */
export function providerEnvironment(environment: Environment = getEnvironment()): Environment {
  const stored = holder.patchworkProviderSettings?.providers;
  if (!stored || stored.size === 0) return environment;
  const overlay: Partial<Record<string, string>> = {};
  for (const provider of ["openai", "anthropic", "google"] as const) {
    const saved = stored.get(provider);
    const variable = providerVariables[provider].key;
    if (saved?.apiKey && !isSet(environment[variable])) overlay[variable] = saved.apiKey;
  }
  const compatible = stored.get("compatible");
  if (compatible?.baseUrl && !isSet(environment.OPENAI_COMPATIBLE_BASE_URL)) {
    overlay.OPENAI_COMPATIBLE_BASE_URL = compatible.baseUrl;
    overlay.OPENAI_COMPATIBLE_API_KEY = compatible.apiKey ?? "";
    overlay.OPENAI_COMPATIBLE_MODELS = compatible.models ?? "";
  }
  return { ...environment, ...overlay };
}

/**
 * Reloads saved providers from the database when this process's copy is older than `maxAgeMs`.
 * Called before anything lists or resolves models; the sync readers use the copy it leaves.
 */
export async function refreshProviderSettings({
  maxAgeMs = snapshotMaxAgeMs,
  db,
}: {
  maxAgeMs?: number;
  db?: Database;
} = {}): Promise<void> {
  const current = holder.patchworkProviderSettings;
  if (current && Date.now() - current.loadedAt < maxAgeMs) return;
  holder.patchworkProviderRefresh ??= (async () => {
    try {
      const rows = await listProviderSettings(db ?? (await getDatabase()));
      const snapshot: Snapshot = {
        providers: new Map(rows.map((row) => [row.provider, openRow(row)])),
        loadedAt: Date.now(),
      };
      holder.patchworkProviderSettings = snapshot;
      return snapshot;
    } finally {
      holder.patchworkProviderRefresh = undefined;
    }
  })();
  await holder.patchworkProviderRefresh;
}

function openRow(row: ProviderSettingRow): StoredProvider {
  let apiKey: string | null = null;
  let problem: string | null = null;
  if (row.apiKeyCiphertext) {
    try {
      apiKey = decryptSecret(secretKey(), row.apiKeyCiphertext, row.provider);
      rememberSecret(apiKey);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      problem = `${error.message} Save the key again.`;
      logServerError(`the saved ${row.provider} key cannot be used`, error);
    }
  }
  return {
    provider: row.provider,
    apiKey,
    apiKeyHint: row.apiKeyHint,
    baseUrl: row.baseUrl,
    models: row.models,
    updatedAt: row.updatedAt,
    problem,
  };
}

/** A provider as the settings page shows it: where its configuration comes from, key masked. */
export interface ProviderSettingView {
  provider: ProviderSettingId;
  displayName: string;
  keyVariable: string;
  /** Which side the models use: the environment wins over saved settings. */
  source: "environment" | "settings" | null;
  /** Saved settings exist but the environment's variables are used instead. */
  overriddenByEnvironment: boolean;
  saved: {
    keyHint: string | null;
    hasKey: boolean;
    baseUrl: string | null;
    models: string[];
    updatedAt: Date;
    problem: string | null;
  } | null;
  /** The compatible endpoint in use (credentials stripped). */
  baseUrl: string | null;
}

export async function describeProviderSettings(db?: Database): Promise<ProviderSettingView[]> {
  await refreshProviderSettings({ maxAgeMs: 0, db });
  const environment = getEnvironment();
  const effective = providerEnvironment(environment);
  const stored = holder.patchworkProviderSettings?.providers ?? new Map();
  return (Object.keys(providerVariables) as ProviderSettingId[]).map((provider) => {
    const variables = providerVariables[provider];
    const fromEnvironment =
      provider === "compatible"
        ? isSet(environment.OPENAI_COMPATIBLE_BASE_URL)
        : isSet(environment[variables.key]);
    const saved = stored.get(provider);
    const baseUrl = provider === "compatible" ? effective.OPENAI_COMPATIBLE_BASE_URL : undefined;
    return {
      provider,
      displayName: variables.displayName,
      keyVariable: variables.key,
      source: fromEnvironment ? "environment" : saved ? "settings" : null,
      overriddenByEnvironment: fromEnvironment && saved !== undefined,
      saved: saved
        ? {
            keyHint: saved.apiKeyHint,
            hasKey: saved.apiKey !== null || saved.problem !== null,
            baseUrl: saved.baseUrl ? describeEndpoint(saved.baseUrl) : null,
            models: parseModelList(saved.models ?? undefined),
            updatedAt: saved.updatedAt,
            problem: saved.problem,
          }
        : null,
      baseUrl: baseUrl ? describeEndpoint(baseUrl) : null,
    };
  });
}

export interface ProviderSettingInput {
  provider: ProviderSettingId;
  /** Absent: keep the saved key. Null: remove it (compatible endpoints that need none). */
  apiKey?: string | null;
  baseUrl?: string | null;
  models?: string[];
}

/** Saves a provider's settings, the key encrypted; effective at once in this process. */
export async function saveProviderSetting(input: ProviderSettingInput, db?: Database) {
  const database = db ?? (await getDatabase());
  const keepKey = input.apiKey === undefined;
  const existingRow = (await listProviderSettings(database)).find(
    (row) => row.provider === input.provider,
  );
  const apiKey = keepKey ? null : input.apiKey;
  if (input.provider === "compatible") {
    if (!input.baseUrl) {
      throw new PatchworkError(
        "VALIDATION_FAILED",
        "An OpenAI-compatible endpoint needs its base URL.",
        {
          details: { field: "base_url" },
        },
      );
    }
  } else if (!apiKey && !(keepKey && existingRow?.apiKeyCiphertext)) {
    throw new PatchworkError(
      "VALIDATION_FAILED",
      `${providerVariables[input.provider].displayName} needs an API key.`,
      { details: { field: "api_key" } },
    );
  }
  await upsertProviderSetting(database, {
    provider: input.provider,
    apiKeyCiphertext: keepKey
      ? (existingRow?.apiKeyCiphertext ?? null)
      : apiKey
        ? encryptSecret(secretKey(), apiKey, input.provider)
        : null,
    apiKeyHint: keepKey ? (existingRow?.apiKeyHint ?? null) : apiKey ? secretHint(apiKey) : null,
    baseUrl: input.provider === "compatible" ? (input.baseUrl ?? null) : null,
    models:
      input.provider === "compatible" && input.models && input.models.length > 0
        ? input.models.join(",")
        : null,
  });
  if (apiKey) rememberSecret(apiKey);
  await refreshProviderSettings({ maxAgeMs: 0, db: database });
}

export async function removeProviderSetting(provider: ProviderSettingId, db?: Database) {
  const database = db ?? (await getDatabase());
  const removed = await deleteProviderSetting(database, { provider });
  await refreshProviderSettings({ maxAgeMs: 0, db: database });
  if (!removed) {
    throw new PatchworkError("NOT_FOUND", `No saved settings for ${provider}.`, {
      details: { provider },
    });
  }
}

/** Test-only: forget the snapshot and the key, as a fresh process would start. */
export function resetProviderSettingsForTests(): void {
  holder.patchworkProviderSettings = undefined;
  holder.patchworkProviderRefresh = undefined;
  holder.patchworkSecretKey = undefined;
}
