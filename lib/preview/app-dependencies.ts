import type { PreviewDiagnostic } from "./preview-types";

/**
 * The npm packages an app declares in its package.json `dependencies`, checked before anything
 * reaches npm: names as npm allows them, and versions as registry ranges or tags only — never a
 * URL, a git repository, a path or an alias, which would let an app fetch code from anywhere or
 * read the server's files.
 */

// npm's own rule for new package names: lowercase, URL-safe, optionally scoped, at most 214.
const packageNamePattern = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
// Semver versions and ranges (1.2.3, ^1.2, ~1, >=1 <2, 1.x, *) and dist-tags (latest, next).
const versionSpecPattern = /^(?:[\w.^~<>=*| -]{1,100})$/;
const refusedSpecPattern = /[:/\\@#]|^\.|\.\./;

/** At most this many declared packages; each may pull in many more. */
export const maximumDeclaredPackages = 40;

export interface AppDependencies {
  /** name → version spec, sorted by name; empty when nothing needs installing. */
  packages: Record<string, string>;
  diagnostics: PreviewDiagnostic[];
}

/** A build error about the app's packages, placed on package.json. */
export function packageJsonProblem(message: string): PreviewDiagnostic {
  return { file: "package.json", line: null, column: null, message, severity: "error" };
}

/**
 * The packages to install for an app: its package.json `dependencies` minus the ones the builder
 * always provides (React, the starter's libraries), which keep the builder's own copy so every
 * app shares one React.
 */
export function readAppDependencies(
  packageJson: string | undefined,
  providedPackages: ReadonlySet<string>,
): AppDependencies {
  if (packageJson === undefined) return { packages: {}, diagnostics: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(packageJson);
  } catch (error) {
    return {
      packages: {},
      diagnostics: [
        packageJsonProblem(`package.json is not valid JSON: ${(error as Error).message}`),
      ],
    };
  }
  const dependencies = (parsed as { dependencies?: unknown } | null)?.dependencies;
  if (dependencies === undefined) return { packages: {}, diagnostics: [] };
  if (typeof dependencies !== "object" || dependencies === null || Array.isArray(dependencies)) {
    return {
      packages: {},
      diagnostics: [
        packageJsonProblem('"dependencies" in package.json must be an object of name → version.'),
      ],
    };
  }
  const diagnostics: PreviewDiagnostic[] = [];
  const packages: Record<string, string> = {};
  const entries = Object.entries(dependencies as Record<string, unknown>).sort(([left], [right]) =>
    left.localeCompare(right),
  );
  if (entries.length > maximumDeclaredPackages) {
    diagnostics.push(
      packageJsonProblem(
        `package.json declares ${entries.length} dependencies; at most ${maximumDeclaredPackages} are installed for a preview.`,
      ),
    );
    return { packages: {}, diagnostics };
  }
  for (const [name, spec] of entries) {
    if (!packageNamePattern.test(name) || name.length > 214) {
      diagnostics.push(
        packageJsonProblem(`"${name.slice(0, 100)}" is not a valid npm package name.`),
      );
      continue;
    }
    if (typeof spec !== "string") {
      diagnostics.push(
        packageJsonProblem(`The version of "${name}" must be a string such as "^1.2.0".`),
      );
      continue;
    }
    if (providedPackages.has(name)) continue;
    const trimmed = spec.trim() || "latest";
    if (!versionSpecPattern.test(trimmed) || refusedSpecPattern.test(trimmed)) {
      diagnostics.push(
        packageJsonProblem(
          `"${name}": "${spec.slice(0, 100)}" is not a registry version. Use a version or range such as "^1.2.0" (URLs, git, file paths and aliases are not installed).`,
        ),
      );
      continue;
    }
    packages[name] = trimmed;
  }
  return { packages: diagnostics.length > 0 ? {} : packages, diagnostics };
}

/** The package a bare import names: "lodash/get" → "lodash", "@scope/pkg/x" → "@scope/pkg". */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}
