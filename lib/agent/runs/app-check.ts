import "server-only";
import { typeCheckWorkspace } from "@/lib/agent/engines/native/type-check";
import {
  buildPreview,
  type PreviewDiagnostic,
  type PreviewFileContent,
  previewSourceMap,
} from "@/lib/preview";
import { formatDiagnosticLocation } from "@/lib/preview/error-overlay";
import { type BrowserCheck, checkPreviewInBrowser } from "@/lib/preview-check/check-preview";

/**
 * Does the app work? The same three looks a person would take: it bundles, it type-checks, and
 * loaded in a browser it throws nothing and logs no error. Used by the native agent's
 * `check_preview` tool and by the check every run that changed files ends with.
 */
export interface AppCheck {
  /** `works`, `broken`, or `unchecked` when the browser part could not run (said in `summary`). */
  verdict: "works" | "broken" | "unchecked";
  /** One line for the panel's row: "Checked: builds, types, no runtime errors". */
  summary: string;
  /** Everything wrong, each with its place, for the model to fix. */
  problems: string[];
  /** What the page shows (trimmed), when it loaded. */
  visibleText: string | null;
  /** `data:image/jpeg;base64,…` of the loaded page, when it loaded. */
  screenshot: string | null;
  diagnostics: PreviewDiagnostic[];
  durationMs: number;
}

export async function checkApp(input: {
  /** A unique build key for these files (e.g. `run:<id>:check:<n>`). */
  key: string;
  appId: string;
  files: ReadonlyMap<string, PreviewFileContent>;
}): Promise<AppCheck> {
  const startedAt = performance.now();
  const buildInput = { key: input.key, appId: input.appId, files: input.files };
  const [build, typeErrors] = await Promise.all([
    buildPreview(buildInput),
    typeCheckWorkspace(input.files),
  ]);
  const indexHtml = input.files.get("index.html");
  const buildErrors = build.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  const browser: BrowserCheck | null = build.ok
    ? await checkPreviewInBrowser(build, {
        indexHtml:
          indexHtml === undefined || typeof indexHtml === "string"
            ? indexHtml
            : new TextDecoder().decode(indexHtml),
        sourceMap: () => previewSourceMap(buildInput, build),
      })
    : null;

  const problems = [
    ...buildErrors.map((error) => `Build: ${formatDiagnosticLocation(error)} ${error.message}`),
    ...typeErrors.map((error) => `Types: ${formatDiagnosticLocation(error)} ${error.message}`),
    ...(browser && browser.status !== "skipped"
      ? browser.problems.map(
          (problem) =>
            `In the browser (${problem.kind}): ${problem.location ? `${problem.location.file}:${problem.location.line}:${problem.location.column} ` : ""}${problem.message}`,
        )
      : []),
  ];
  const runtimeCount = browser && browser.status !== "skipped" ? browser.problems.length : 0;
  const parts = [
    build.ok ? "builds" : `${count(buildErrors.length, "build error")}`,
    typeErrors.length === 0 ? "types" : count(typeErrors.length, "type error"),
    !browser
      ? "not loaded"
      : browser.status === "skipped"
        ? "browser skipped"
        : runtimeCount === 0
          ? "no runtime errors"
          : count(runtimeCount, "runtime error"),
  ];
  const verdict: AppCheck["verdict"] =
    problems.length > 0 ? "broken" : browser?.status === "skipped" ? "unchecked" : "works";
  const summary =
    verdict === "works"
      ? `Checked: ${parts.join(", ")}`
      : verdict === "unchecked"
        ? `Checked: builds, types; the browser check was skipped (${(browser as { reason: string }).reason})`
        : `Check failed: ${parts.join(", ")}`;
  return {
    verdict,
    summary,
    problems,
    visibleText: browser && browser.status !== "skipped" ? browser.visibleText : null,
    screenshot:
      browser && browser.status !== "skipped"
        ? `data:image/jpeg;base64,${browser.screenshot.toString("base64")}`
        : null,
    diagnostics: [
      ...buildErrors,
      ...typeErrors,
      ...(browser && browser.status !== "skipped"
        ? browser.problems.map((problem) => ({
            file: problem.location?.file ?? null,
            line: problem.location?.line ?? null,
            column: problem.location?.column ?? null,
            message: `${problem.kind}: ${problem.message}`,
            severity: "error" as const,
          }))
        : []),
    ],
    durationMs: Math.round(performance.now() - startedAt),
  };
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? "" : "s"}`;
}

/** What the model is told when the check at the end of its turn failed. */
export function checkFailureMessage(check: AppCheck, attemptsLeft: number): string {
  return [
    "I checked the app after your changes and it does not work yet:",
    "",
    ...check.problems.slice(0, 20).map((problem) => `- ${problem}`),
    ...(check.visibleText !== null
      ? ["", `The page shows: ${check.visibleText.slice(0, 400) || "(nothing)"}`]
      : []),
    "",
    `Fix these problems now (read the files first, then patch). ${attemptsLeft === 1 ? "This is the last check before the run ends." : `${attemptsLeft} more checks are left before the run ends.`}`,
  ].join("\n");
}
