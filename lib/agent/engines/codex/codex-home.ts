import "server-only";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EngineModel } from "../engine";

/** The variable Codex reads the provider key from (`env_key`); set only in its environment. */
export const codexKeyVariable = "PATCHWORK_MODEL_API_KEY";
const providerName = "patchwork";

/**
 * Where one app's Codex state lives: `<data dir>/engines/codex/<app id>`. It outlives a run so a
 * follow-up can `thread/resume` the thread Codex stored there; it goes when the app is deleted.
 */
export function codexHomeOf(dataDirectory: string, appId: string): string {
  return path.resolve(dataDirectory, "engines", "codex", appId.replace(/[^a-zA-Z0-9-]/g, ""));
}

/** A TOML basic string: JSON's escapes are TOML's. */
const tomlString = (value: string) => JSON.stringify(value);

/**
 * The config.toml of one run: the pinned model through our provider entry (Responses API, no
 * retries: Patchwork reports failures itself), nothing that reaches out on its own (update checks,
 * analytics, plugins, apps), and the run's folder trusted so Codex works in it without asking.
 */
export function codexConfigToml({
  model,
  workFolder,
  catalogPath,
}: {
  model: EngineModel;
  workFolder: string;
  catalogPath: string;
}): string {
  return [
    `model = ${tomlString(model.name)}`,
    `model_provider = ${tomlString(providerName)}`,
    `model_catalog_json = ${tomlString(catalogPath)}`,
    "check_for_update_on_startup = false",
    "",
    `[model_providers.${providerName}]`,
    `name = "Patchwork"`,
    `base_url = ${tomlString(model.baseUrl)}`,
    `wire_api = "responses"`,
    `env_key = ${tomlString(codexKeyVariable)}`,
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "supports_websockets = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    "remote_plugin = false",
    "apps = false",
    "in_app_updates = false",
    "",
    `[projects.${tomlString(workFolder)}]`,
    `trust_level = "trusted"`,
    "",
  ].join("\n");
}

/**
 * Writes the app's Codex home for one run (0700, config and catalog 0600) and returns its path.
 * The catalog names the pinned model, so Codex offers it the `apply_patch` tool it gives only to
 * models it knows.
 */
export async function prepareCodexHome({
  dataDirectory,
  appId,
  model,
  workFolder,
  catalogEntryTemplate,
}: {
  dataDirectory: string;
  appId: string;
  model: EngineModel;
  workFolder: string;
  catalogEntryTemplate: Record<string, unknown>;
}): Promise<string> {
  const home = codexHomeOf(dataDirectory, appId);
  await mkdir(home, { recursive: true, mode: 0o700 });
  await chmod(home, 0o700);
  const catalogPath = path.join(home, "model-catalog.json");
  const entry = {
    ...catalogEntryTemplate,
    slug: model.name,
    display_name: model.name,
    description: `${model.id} through Patchwork`,
    visibility: "list",
    supported_in_api: true,
    upgrade: null,
    apply_patch_tool_type: "freeform",
  };
  await writeFile(catalogPath, JSON.stringify({ models: [entry] }), { mode: 0o600 });
  await writeFile(
    path.join(home, "config.toml"),
    codexConfigToml({ model, workFolder, catalogPath }),
    { mode: 0o600 },
  );
  return home;
}

/** Removes an app's Codex state (its stored threads) when the app is deleted. */
export async function removeCodexHome(dataDirectory: string, appId: string): Promise<void> {
  await rm(codexHomeOf(dataDirectory, appId), { recursive: true, force: true });
}
