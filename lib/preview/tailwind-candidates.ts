import { Scanner } from "@tailwindcss/oxide";
import { extensionOf, type VirtualFiles } from "./virtual-files";

// Tailwind's automatic source detection skips stylesheets, lock files and binaries; so do we.
const skippedExtensions = new Set([
  ".css",
  ".lock",
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".avif",
  ".ico",
  ".woff",
  ".woff2",
  ".ttf",
  ".otf",
  ".mp3",
  ".mp4",
  ".webm",
  ".pdf",
  ".zip",
]);
const skippedFiles = new Set(["package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb"]);

/**
 * Extracts Tailwind class candidates from a revision's files with Tailwind's own scanner
 * (@tailwindcss/oxide), remembering each file's candidates so a rebuild rescans only what changed.
 */
export class CandidateScanner {
  private readonly byPath = new Map<string, { content: string; candidates: string[] }>();

  /** Every candidate in the revision's scannable files, sorted and without duplicates. */
  scan(files: VirtualFiles): string[] {
    const candidates = new Set<string>();
    const seen = new Set<string>();
    for (const file of files.paths()) {
      if (!isScannable(file)) continue;
      const content = files.readText(file) ?? "";
      seen.add(file);
      let cached = this.byPath.get(file);
      if (cached?.content !== content) {
        // A fresh scanner per file: a shared one only reports candidates it has not seen before.
        const found = new Scanner({}).scanFiles([
          { content, extension: extensionOf(file).slice(1) },
        ]);
        cached = { content, candidates: found };
        this.byPath.set(file, cached);
      }
      for (const candidate of cached.candidates) candidates.add(candidate);
    }
    for (const file of this.byPath.keys()) if (!seen.has(file)) this.byPath.delete(file);
    return [...candidates].sort();
  }
}

function isScannable(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return !skippedFiles.has(name) && !skippedExtensions.has(extensionOf(file));
}
