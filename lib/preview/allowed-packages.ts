import { packageNameOf } from "./app-dependencies";

/**
 * The bare imports a preview may use. They resolve to the builder's own node_modules, so a draft
 * app never installs anything and cannot pull arbitrary code onto the server or into the bundle.
 */
export const allowedPreviewPackages = [
  "react",
  "react-dom",
  "react-dom/client",
  "react/jsx-runtime",
  "lucide-react",
  "clsx",
  "tailwind-merge",
] as const;

const allowed = new Set<string>(allowedPreviewPackages);

/**
 * The packages the builder provides itself, whatever version an app's package.json names: one
 * copy of React for every app, and the starter's libraries with no install.
 */
export const providedPackageNames: ReadonlySet<string> = new Set([
  "react",
  "react-dom",
  "lucide-react",
  "clsx",
  "tailwind-merge",
]);

/**
 * Allowed packages esbuild resolves by itself from the builder root. lucide-react is not among
 * them: the plugin replaces its entry with a module of just the icons the app imports.
 */
export const nativelyResolvedPackages = allowedPreviewPackages.filter(
  (name) => name !== "lucide-react",
);

/** True for an import specifier that names an allowed package entry exactly. */
export function isAllowedPackageImport(specifier: string): boolean {
  return allowed.has(specifier);
}

/** True for the stylesheet imports Tailwind itself resolves: "tailwindcss" and its subpaths. */
export function isTailwindStylesheetImport(specifier: string): boolean {
  return specifier === "tailwindcss" || specifier.startsWith("tailwindcss/");
}

/** The message for a bare import of a package the app has not declared; it says how to add it. */
export function forbiddenImportMessage(specifier: string): string {
  return (
    `"${specifier}" is not installed. Add it to "dependencies" in package.json (for example ` +
    `"${packageNameOf(specifier)}": "^1.0.0") and the preview installs it; ` +
    `${allowedPreviewPackages.join(", ")} are always available (and "tailwindcss" from CSS).`
  );
}
