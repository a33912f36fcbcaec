import { PatchworkError } from "@/lib/errors";

/** Hard limits per app; generous for a web app, small enough to keep every revision cheap. */
export const workspaceLimits = {
  maxFileBytes: 1024 * 1024,
  maxAppBytes: 25 * 1024 * 1024,
  maxAppFiles: 5000,
} as const;

/** A limit a change would break: what to tell the person or the model, and the figures. */
export interface LimitProblem {
  message: string;
  details: Record<string, unknown>;
}

/** Why a file of `size` bytes is too large, or null. */
export function fileSizeProblem(path: string, size: number): LimitProblem | null {
  if (size <= workspaceLimits.maxFileBytes) return null;
  return {
    message: `${path} is ${formatBytes(size)}; files are limited to ${formatBytes(workspaceLimits.maxFileBytes)}.`,
    details: { path, size, limit: workspaceLimits.maxFileBytes },
  };
}

/** Why an app of these totals is too large, or null. */
export function appTotalsProblem(totals: { files: number; size: number }): LimitProblem | null {
  if (totals.files > workspaceLimits.maxAppFiles) {
    return {
      message: `An app can hold at most ${workspaceLimits.maxAppFiles} files; this change would make ${totals.files}.`,
      details: { files: totals.files, limit: workspaceLimits.maxAppFiles },
    };
  }
  if (totals.size > workspaceLimits.maxAppBytes) {
    return {
      message: `An app can hold at most ${formatBytes(workspaceLimits.maxAppBytes)}; this change would make ${formatBytes(totals.size)}.`,
      details: { size: totals.size, limit: workspaceLimits.maxAppBytes },
    };
  }
  return null;
}

export function assertFileSize(path: string, size: number): void {
  const problem = fileSizeProblem(path, size);
  if (problem)
    throw new PatchworkError("PAYLOAD_TOO_LARGE", problem.message, { details: problem.details });
}

export function assertAppTotals(totals: { files: number; size: number }): void {
  const problem = appTotalsProblem(totals);
  if (problem)
    throw new PatchworkError("PAYLOAD_TOO_LARGE", problem.message, { details: problem.details });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
