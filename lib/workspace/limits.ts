import { PatchworkError } from "@/lib/errors";

/** Hard limits per app; generous for a web app, small enough to keep every revision cheap. */
export const workspaceLimits = {
  maxFileBytes: 1024 * 1024,
  maxAppBytes: 25 * 1024 * 1024,
  maxAppFiles: 5000,
} as const;

export function assertFileSize(path: string, size: number): void {
  if (size > workspaceLimits.maxFileBytes) {
    throw new PatchworkError(
      "PAYLOAD_TOO_LARGE",
      `${path} is ${formatBytes(size)}; files are limited to ${formatBytes(workspaceLimits.maxFileBytes)}.`,
      { details: { path, size, limit: workspaceLimits.maxFileBytes } },
    );
  }
}

export function assertAppTotals(totals: { files: number; size: number }): void {
  if (totals.files > workspaceLimits.maxAppFiles) {
    throw new PatchworkError(
      "PAYLOAD_TOO_LARGE",
      `An app can hold at most ${workspaceLimits.maxAppFiles} files; this change would make ${totals.files}.`,
      { details: { files: totals.files, limit: workspaceLimits.maxAppFiles } },
    );
  }
  if (totals.size > workspaceLimits.maxAppBytes) {
    throw new PatchworkError(
      "PAYLOAD_TOO_LARGE",
      `An app can hold at most ${formatBytes(workspaceLimits.maxAppBytes)}; this change would make ${formatBytes(totals.size)}.`,
      { details: { size: totals.size, limit: workspaceLimits.maxAppBytes } },
    );
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
