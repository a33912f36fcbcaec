import { PatchworkError } from "@/lib/errors";
import { normalizeWorkspacePath as checkWorkspacePath, maximumPathLength } from "@/lib/patch";

export const maxPathLength = maximumPathLength;

/**
 * Returns the canonical form of a workspace path, or throws VALIDATION_FAILED. The rules are the
 * patch engine's (lib/patch/path-policy.ts), so the files API, the store and the agent accept
 * exactly the same paths: a file a person can save, the agent can patch, and the reverse.
 */
export function normalizeWorkspacePath(raw: string): string {
  const checked = typeof raw === "string" ? checkWorkspacePath(raw) : null;
  if (!checked?.ok) {
    const reason = checked?.reason ?? "it is not text";
    throw new PatchworkError("VALIDATION_FAILED", `Invalid path "${truncate(raw)}": ${reason}.`, {
      details: { path: truncate(raw), reason },
    });
  }
  return checked.path;
}

/** Explains why a path is not acceptable, or returns null when it is. */
export function workspacePathProblem(raw: string): string | null {
  if (typeof raw !== "string") return "it is not text";
  const checked = checkWorkspacePath(raw);
  return checked.ok ? null : checked.reason;
}

function truncate(value: unknown): string {
  const text = String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
