import { formatBytes, workspaceLimits } from "@/lib/workspace/limits";
import type { WorkspaceOverlay } from "../workspace-overlay";
import type { ToolOutcome } from "./agent-tool";

/**
 * Checks the store's per-file and per-app limits against the overlay as it would be after these
 * updates, so the model hears PAYLOAD_TOO_LARGE from the tool and can react — instead of the
 * commit discovering it at the end and the whole run's work being lost.
 */
export function checkWorkspaceLimits(
  overlay: WorkspaceOverlay,
  updates: Iterable<readonly [string, string | null]>,
): ToolOutcome | null {
  const after = new Map<string, number | undefined>();
  for (const [path, content] of updates) {
    const size = content === null ? undefined : Buffer.byteLength(content);
    if (size !== undefined && size > workspaceLimits.maxFileBytes) {
      return refuse(
        `${path} would be ${formatBytes(size)}; files are limited to ${formatBytes(workspaceLimits.maxFileBytes)}.`,
        { path, size, limit: workspaceLimits.maxFileBytes },
      );
    }
    after.set(path, size);
  }
  let files = 0;
  let bytes = 0;
  for (const path of overlay.paths()) {
    const size = after.has(path) ? after.get(path) : overlay.sizeOf(path);
    if (size === undefined) continue;
    files += 1;
    bytes += size;
  }
  for (const [path, size] of after) {
    if (size === undefined || overlay.has(path)) continue;
    files += 1;
    bytes += size;
  }
  if (files > workspaceLimits.maxAppFiles) {
    return refuse(
      `An app can hold at most ${workspaceLimits.maxAppFiles} files; this change would make ${files}. Nothing from this call was applied.`,
      { files, limit: workspaceLimits.maxAppFiles },
    );
  }
  if (bytes > workspaceLimits.maxAppBytes) {
    return refuse(
      `An app can hold at most ${formatBytes(workspaceLimits.maxAppBytes)}; this change would make ${formatBytes(bytes)}. Nothing from this call was applied.`,
      { size: bytes, limit: workspaceLimits.maxAppBytes },
    );
  }
  return null;
}

function refuse(message: string, details: Record<string, unknown>): ToolOutcome {
  return {
    ok: false,
    code: "PAYLOAD_TOO_LARGE",
    message,
    details,
    output: { ok: false, error: { code: "PAYLOAD_TOO_LARGE", message, ...details } },
  };
}
