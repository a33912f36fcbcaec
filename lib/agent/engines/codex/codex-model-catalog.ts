import "server-only";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The bundled model Codex's own catalog describes best for coding with a freeform apply_patch. */
const preferredTemplateSlug = "gpt-5.5";

const templates = new Map<string, Promise<Record<string, unknown>>>();

/**
 * A catalog entry to model the pinned model's on, from the binary's own catalog (`codex debug
 * models`), so its fields always match what this Codex version expects. Read once per binary.
 */
export function codexCatalogEntryTemplate(binary: string): Promise<Record<string, unknown>> {
  let template = templates.get(binary);
  if (!template) {
    template = readTemplate(binary);
    templates.set(binary, template);
    // A failure is not remembered: the next run asks again.
    template.catch(() => templates.delete(binary));
  }
  return template;
}

async function readTemplate(binary: string): Promise<Record<string, unknown>> {
  const home = await mkdtemp(path.join(os.tmpdir(), "patchwork-codex-catalog-"));
  try {
    const { stdout } = await run(binary, ["debug", "models"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        CODEX_HOME: home,
      } as unknown as NodeJS.ProcessEnv,
      timeout: 15_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const models = (JSON.parse(stdout) as { models?: Record<string, unknown>[] }).models ?? [];
    const template =
      models.find((model) => model.slug === preferredTemplateSlug) ??
      models.find((model) => model.apply_patch_tool_type === "freeform");
    if (!template) throw new Error("codex debug models listed no model with apply_patch");
    return template;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
