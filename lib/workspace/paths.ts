import { PatchworkError } from "@/lib/errors";
import {
  maximumPathLength,
  normalizeWorkspacePath as checkWorkspacePath,
  workspacePathProblem,
} from "@/lib/patch/path-policy";

export { workspacePathProblem };
export const maxPathLength = maximumPathLength;

/**
 * Returns the canonical form of a workspace path (lib/patch/path-policy.ts, the one policy the
 * patch engine and the tools use too), or throws VALIDATION_FAILED saying why.
 */
export function normalizeWorkspacePath(raw: string): string {
  const checked = checkWorkspacePath(raw);
  if (!checked.ok) {
    throw new PatchworkError(
      "VALIDATION_FAILED",
      `Invalid path "${truncate(raw)}": ${checked.reason}.`,
      { details: { path: truncate(raw), reason: checked.reason } },
    );
  }
  return checked.path;
}

function truncate(value: unknown): string {
  const text = String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
