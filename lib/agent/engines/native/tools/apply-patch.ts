import { z } from "zod";
import type { WorkspaceOverlay } from "@/lib/agent/workspace/workspace-overlay";
import type { PatchResult } from "@/lib/patch";
import { applyPatchInWorker } from "@/lib/patch-worker/apply-patch-in-worker";
import type { LimitProblem } from "@/lib/workspace/limits";
import { defineTool, type ToolContext, type ToolOutcome } from "./agent-tool";

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
  async execute(input, context, signal) {
    const result = await applyPatchToOverlay(context.overlay, input.patch, signal);
    if (!result.ok) return patchFailure(result, context);
    const limit = context.overlay.limitProblem(result.updates);
    if (limit) return limitFailure(limit);
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
 * Runs the pure engine over the overlay on a worker thread (see applyPatchInWorker): the files
 * the patch names are loaded first, and the thread is terminated when `signal` aborts.
 */
export function applyPatchToOverlay(
  overlay: WorkspaceOverlay,
  patch: string,
  signal: AbortSignal,
): Promise<PatchResult> {
  const workspace = {
    paths: () => overlay.paths(),
    loaded: (paths: readonly string[]) =>
      new Map(
        paths
          .filter((path) => overlay.isLoaded(path))
          .map((path) => [path, overlay.peekText(path) ?? null] as const),
      ),
    load: (paths: readonly string[]) => overlay.preload(paths.filter((path) => overlay.has(path))),
  };
  return applyPatchInWorker(workspace, patch, patchedPaths(patch), signal);
}

/** A patch that applies but would make the app too large: nothing is written, the model is told. */
export function limitFailure(limit: LimitProblem): ToolOutcome {
  return {
    ok: false,
    code: "PAYLOAD_TOO_LARGE",
    message: limit.message,
    details: limit.details,
    output: {
      ok: false,
      code: "PAYLOAD_TOO_LARGE",
      summary: `${limit.message} Nothing was changed.`,
    },
  };
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
  // Only header lines can name a path: find them with one scan instead of testing every line.
  const headers = patch.matchAll(
    /^(?:\s*\*\*\* (?:Update File|Add File|Delete File|Move to):|\+\+\+ |--- |diff --git ).*$/gm,
  );
  for (const [header] of headers) {
    const line = header.replace(/\r$/, "");
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
