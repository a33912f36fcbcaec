import { z } from "zod";
import { applyPatch, type PatchFileSource, type PatchResult } from "@/lib/patch";
import type { WorkspaceOverlay } from "../workspace-overlay";
import { defineTool, type ToolContext, type ToolOutcome } from "./agent-tool";
import { checkWorkspaceLimits } from "./workspace-limits";

/** After this many failed patches on one file, the model is told to re-read it (and may get write_file). */
export const patchFailuresBeforeRefresh = 2;

export const applyPatchTool = defineTool({
  name: "apply_patch",
  description: [
    "Edit files by applying a patch. Accepts a unified diff (---/+++ headers, @@ hunks with 3 lines of context, /dev/null for new or deleted files) or the *** Begin Patch format (*** Update File: / *** Add File: / *** Delete File: / *** Move to: / @@ anchors / *** End Patch).",
    "Several files at once; all changes apply or none do. Context lines must match the file as it is now — read the lines first.",
    "On failure you get the reason per hunk and refresh_windows with the current lines: patch again against those.",
  ].join(" "),
  inputSchema: z.object({
    patch: z
      .string({ error: "patch is required" })
      .min(1, "patch is required")
      .max(512 * 1024, "patches are limited to 512 KiB"),
  }),
  title: (input) => {
    const paths = patchedPaths(input.patch);
    if (paths.length === 0) return "Apply patch";
    return paths.length === 1
      ? `Edit ${paths[0]}`
      : `Edit ${paths[0]} and ${paths.length - 1} more`;
  },
  async execute(input, context) {
    const result = await applyPatchToOverlay(context.overlay, input.patch);
    if (!result.ok) return patchFailure(result, context);
    const overLimit = checkWorkspaceLimits(context.overlay, result.updates);
    if (overLimit) return overLimit;
    for (const [path, content] of result.updates) {
      if (content === null) context.overlay.delete(path);
      else context.overlay.write(path, content);
    }
    for (const change of result.changes) {
      context.patchFailures.delete(change.path);
    }
    const additions = result.changes.reduce((sum, change) => sum + change.additions, 0);
    const deletions = result.changes.reduce((sum, change) => sum + change.deletions, 0);
    const files = result.changes.map((change) => change.path);
    const verification = context.autoVerifyPatch ? await context.verify() : undefined;
    return {
      ok: true,
      summary: `${files.join(", ")} +${additions} −${deletions}`,
      details: { files, additions, deletions, changes: result.changes },
      output: {
        ok: true,
        changes: result.changes,
        verification_plan: result.verification_plan,
        ...(verification ? { verification } : {}),
      },
    };
  },
});

/**
 * Runs the pure engine over the overlay. The engine reads synchronously, so the files the patch
 * names are loaded first; if it asked for one we had not loaded, load it and run once more. A file
 * still unreadable after loading is binary, which the engine refuses as PATCH_FILE_NOT_TEXT.
 */
export async function applyPatchToOverlay(
  overlay: WorkspaceOverlay,
  patch: string,
): Promise<PatchResult> {
  await overlay.preload(patchedPaths(patch).filter((path) => overlay.has(path)));
  const run = () => {
    const unloaded = new Set<string>();
    const source: PatchFileSource = {
      get(path) {
        const text = overlay.peekText(path);
        if (text === undefined && overlay.has(path) && !overlay.isLoaded(path)) unloaded.add(path);
        return text;
      },
      has: (path) => overlay.has(path),
      keys: () => overlay.paths(),
      isDirectory: (path) => overlay.isDirectory(path),
    };
    return { result: applyPatch({ files: source, patch }), unloaded };
  };
  const first = run();
  if (first.unloaded.size === 0) return first.result;
  await overlay.preload([...first.unloaded]);
  return run().result;
}

function patchFailure(
  result: Extract<PatchResult, { ok: false }>,
  context: ToolContext,
): ToolOutcome {
  const paths = [
    ...new Set(result.failures.map((failure) => failure.path).filter(Boolean)),
  ] as string[];
  let highestCount = 0;
  const refresh: string[] = [];
  for (const path of paths) {
    const count = (context.patchFailures.get(path) ?? 0) + 1;
    context.patchFailures.set(path, count);
    highestCount = Math.max(highestCount, count);
    if (count >= patchFailuresBeforeRefresh) {
      refresh.push(path);
      if (context.overlay.has(path)) context.writeFileUnlocked.add(path);
    }
  }
  const advice =
    refresh.length > 0
      ? `Patches to ${refresh.join(", ")} failed ${highestCount} times. Re-read ${refresh.length === 1 ? "it" : "them"} with read_file_range before patching again${
          context.legacyWriteFileEnabled
            ? ""
            : "; if patching still fails, write_file is now available for that file only"
        }.`
      : "Re-read the refresh windows below and send a corrected patch.";
  return {
    ok: false,
    code: result.code,
    message: result.summary,
    details: {
      patch_code: result.code,
      patch_failure_count: highestCount,
      recommended_refresh: refresh.length > 0 ? refresh : paths,
      diagnostics: result.failures,
    },
    output: {
      ok: false,
      code: result.code,
      summary: result.summary,
      advice,
      failures: result.failures,
      refresh_windows: result.refresh_windows,
    },
  };
}

/** Paths a patch names, from either format's headers (for titles and preloading). */
export function patchedPaths(patch: string): string[] {
  const paths = new Set<string>();
  for (const line of patch.split(/\r?\n/)) {
    const beginPatch = line.match(/^\s*\*\*\* (?:Update|Add|Delete) File:\s*(.+?)\s*$/);
    const moveTo = line.match(/^\s*\*\*\* Move to:\s*(.+?)\s*$/);
    const unified = line.match(/^(?:\+\+\+|---) (?:[ab]\/)?(.+?)(?:\t.*)?\s*$/);
    const gitHeader = line.match(/^diff --git a\/(.+?) b\/(.+?)\s*$/);
    const candidate = beginPatch?.[1] ?? moveTo?.[1] ?? unified?.[1];
    if (candidate && candidate !== "/dev/null" && !candidate.startsWith("dev/null"))
      paths.add(candidate);
    if (gitHeader) {
      paths.add(gitHeader[1]);
      paths.add(gitHeader[2]);
    }
  }
  return [...paths];
}
