import "server-only";
import { unzipSync, zipSync } from "fflate";
import type { Executor } from "@/db/client";
import type { AppRow } from "@/db/schema";
import { PatchworkError } from "@/lib/errors";
import { createApp } from "./apps";
import { formatBytes, workspaceLimits } from "./limits";
import { normalizeWorkspacePath } from "./paths";
import { readAllFiles } from "./read-files";

// Zip timestamps are local DOS times from 1980; a fixed one keeps exports of one draft identical.
const fixedTimestamp = new Date("2000-01-01T00:00:00Z");

/** The app's draft (or a given revision) as a zip archive, files at the archive's root. */
export async function exportZip(
  db: Executor,
  input: { appId: string; revisionId?: string | null },
): Promise<Uint8Array> {
  const { files } = await readAllFiles(db, input);
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const [path, bytes] of files) entries[path] = [bytes, { mtime: fixedTimestamp }];
  return zipSync(entries, { level: 6 });
}

/**
 * Creates an app from a zip archive (revision source `import`). Every name passes the one path
 * policy and the app limits are checked from the archive's declared sizes before anything is
 * inflated, so a zip bomb is refused without being expanded. A single top-level folder that
 * holds everything (as GitHub's "Download ZIP" makes) is stripped.
 */
export async function importZip(
  db: Executor,
  input: { name: string; archive: Uint8Array },
): Promise<AppRow> {
  let count = 0;
  let declared = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(input.archive, {
      filter(file) {
        if (file.name.endsWith("/")) return false;
        count += 1;
        declared += file.originalSize;
        if (file.originalSize > workspaceLimits.maxFileBytes || count > workspaceLimits.maxAppFiles)
          throw tooLarge(`${file.name} or the archive as a whole is over the app limits.`);
        if (declared > workspaceLimits.maxAppBytes)
          throw tooLarge(
            `The archive holds more than ${formatBytes(workspaceLimits.maxAppBytes)} of files.`,
          );
        return true;
      },
    });
  } catch (error) {
    if (PatchworkError.isInstance(error)) throw error;
    throw new PatchworkError("VALIDATION_FAILED", "The upload is not a readable zip archive.", {
      cause: error,
    });
  }
  const names = Object.keys(entries);
  if (names.length === 0)
    throw new PatchworkError("VALIDATION_FAILED", "The zip archive holds no files.");
  const prefix = commonFolder(names);
  const files: Record<string, Uint8Array> = {};
  for (const name of names) {
    const path = normalizeWorkspacePath(name.slice(prefix.length));
    if (files[path])
      throw new PatchworkError("VALIDATION_FAILED", `The archive holds ${path} twice.`, {
        details: { path },
      });
    files[path] = entries[name];
  }
  return createApp(db, {
    name: input.name,
    files,
    source: "import",
    message: "Imported from a zip archive",
  });
}

function commonFolder(names: string[]): string {
  const first = names[0].split("/")[0];
  if (names.every((name) => name.startsWith(`${first}/`))) return `${first}/`;
  return "";
}

function tooLarge(message: string): PatchworkError {
  return new PatchworkError("PAYLOAD_TOO_LARGE", message, {
    details: {
      max_file_bytes: workspaceLimits.maxFileBytes,
      max_app_bytes: workspaceLimits.maxAppBytes,
      max_app_files: workspaceLimits.maxAppFiles,
    },
  });
}
