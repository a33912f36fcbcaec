import type { LooseMatch, PatchChange, VerificationCheck, VerificationPlan } from "./patch-result";

const typeScript = /\.(ts|tsx|mts|cts)$/;
const bundled = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|css|html)$/;
const json = /\.json$/;
const testFile = /\.(test|spec)\.[cm]?[jt]sx?$/;
const sourceFile = /^(.*)\.([cm]?[jt]sx?)$/;

/** Test files beside a source file, by the usual naming conventions. */
function testsBeside(path: string): string[] {
  const match = sourceFile.exec(path);
  if (!match || testFile.test(path)) return [];
  const [, stem, extension] = match;
  const slash = stem.lastIndexOf("/");
  const directory = stem.slice(0, slash + 1);
  const name = stem.slice(slash + 1);
  const extensions = [...new Set([extension, "ts", "tsx", "js", "jsx"])];
  return extensions.flatMap((candidate) => [
    `${stem}.test.${candidate}`,
    `${stem}.spec.${candidate}`,
    `${directory}__tests__/${name}.test.${candidate}`,
  ]);
}

/**
 * What to verify after a patch applied: the files with new content, the paths that vanished
 * (their importers may break), the checks that fit the file types touched (type-check, bundle,
 * JSON parse, the tests beside changed files), and every hunk placed with tolerance, to re-read.
 *
 * @param exists whether a path exists after the patch, to list only real test files
 */
export function planVerification(
  changes: readonly PatchChange[],
  updates: ReadonlyMap<string, string | null>,
  loose: readonly LooseMatch[],
  exists: (path: string) => boolean,
): VerificationPlan {
  const filesToCheck = [...updates].filter(([, text]) => text !== null).map(([path]) => path);
  const removedPaths = [...updates].filter(([, text]) => text === null).map(([path]) => path);
  const touched = [...filesToCheck, ...removedPaths];
  const checks: VerificationCheck[] = [];
  const typed = touched.filter((path) => typeScript.test(path));
  if (typed.length > 0) {
    checks.push({
      kind: "typecheck",
      paths: typed,
      reason: "TypeScript files changed, moved or were removed",
    });
  }
  const bundledPaths = touched.filter(
    (path) => bundled.test(path) || path.endsWith("package.json"),
  );
  if (bundledPaths.length > 0) {
    checks.push({
      kind: "bundle",
      paths: bundledPaths,
      reason: "the preview bundle is built from these files",
    });
  }
  const jsonPaths = filesToCheck.filter((path) => json.test(path));
  if (jsonPaths.length > 0)
    checks.push({ kind: "parse_json", paths: jsonPaths, reason: "JSON files must still parse" });
  const tests = new Set<string>();
  for (const path of filesToCheck) {
    if (testFile.test(path)) tests.add(path);
    for (const candidate of testsBeside(path)) if (exists(candidate)) tests.add(candidate);
  }
  if (tests.size > 0) {
    checks.push({
      kind: "run_tests",
      paths: [...tests],
      reason: "these tests cover or are the changed files",
    });
  }
  const vanished = [
    ...new Set([
      ...removedPaths,
      ...changes.flatMap((change) =>
        change.from_path && change.op === "rename" ? [change.from_path] : [],
      ),
    ]),
  ];
  if (vanished.length > 0) {
    checks.push({
      kind: "find_references",
      paths: vanished,
      reason: "imports of these paths now point at nothing",
    });
  }
  return { files_to_check: filesToCheck, removed_paths: removedPaths, checks, review: [...loose] };
}
