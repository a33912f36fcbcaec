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

/** The message for an import outside the allow-list; it names what is allowed so it can be fixed. */
export function forbiddenImportMessage(specifier: string): string {
  return (
    `"${specifier}" cannot be imported in the preview: only these packages are available: ` +
    `${allowedPreviewPackages.join(", ")} (and "tailwindcss" from CSS). ` +
    "Use one of them or a relative import of a file in the app."
  );
}
