import path from "node:path";
import type { Message } from "esbuild";
import type { PreviewDiagnostic } from "./preview-types";
import { stripServerPaths } from "./strip-server-paths";
import { previewNamespaces } from "./virtual-files-plugin";

const appFilePrefixes = [`${previewNamespaces.app}:`, `${previewNamespaces.entry}:`];
const namespacePrefixPattern = new RegExp(
  `\\b(?:${Object.values(previewNamespaces).join("|")}):(?=[^\\s"])`,
  "g",
);

/**
 * Turns an esbuild message into a diagnostic in the app's coordinates: "app:src/App.tsx" becomes
 * "src/App.tsx", columns become one-based, and files of the builder become root-relative.
 */
export function toPreviewDiagnostic(
  message: Message,
  severity: PreviewDiagnostic["severity"],
  builderRoot: string,
): PreviewDiagnostic {
  const location = message.location;
  return {
    file: location ? appRelativeFile(location.file, builderRoot) : null,
    line: location ? location.line : null,
    column: location ? location.column + 1 : null,
    message: stripServerPaths(withoutNamespaces(message.text), builderRoot),
    severity,
  };
}

/** True for anything esbuild throws on a failed build (a BuildFailure carries `errors`). */
export function isBuildFailure(
  error: unknown,
): error is { errors: Message[]; warnings: Message[] } {
  return (
    error instanceof Error &&
    Array.isArray((error as { errors?: unknown }).errors) &&
    Array.isArray((error as { warnings?: unknown }).warnings)
  );
}

/** esbuild quotes paths as "namespace:path"; people know them as plain paths. */
function withoutNamespaces(text: string): string {
  return text.replace(namespacePrefixPattern, "");
}

function appRelativeFile(file: string, builderRoot: string): string {
  for (const prefix of appFilePrefixes)
    if (file.startsWith(prefix)) return file.slice(prefix.length);
  if (path.isAbsolute(file)) return path.relative(builderRoot, file);
  return file;
}
