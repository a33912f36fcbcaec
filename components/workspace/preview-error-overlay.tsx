"use client";

import { AlertTriangle, ChevronDown, CircleAlert, TriangleAlert, Wand2 } from "lucide-react";
import { useState } from "react";
import type { PreviewDiagnostic } from "@/components/api-types";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/class-names";

/** Where a diagnostic points, "src/App.tsx:12:5", or null when the bundler gave no file. */
export function diagnosticLocation(diagnostic: PreviewDiagnostic): string | null {
  if (!diagnostic.file) return null;
  return [diagnostic.file, diagnostic.line, diagnostic.column]
    .filter((part) => part !== null)
    .join(":");
}

/**
 * The build failed: the diagnostics, drawn by the builder over the preview (not inside it, where
 * a broken app could not show them). Each one with a file opens that file.
 */
export function PreviewErrorOverlay({
  diagnostics,
  onOpenFile,
  kind = "build",
  onFix,
}: {
  diagnostics: PreviewDiagnostic[];
  onOpenFile: (path: string, line?: number) => void;
  /** `build`: the bundle failed; `runtime`: it built, and the running app reported errors. */
  kind?: "build" | "runtime";
  /** Starts an agent run whose input carries these errors. */
  onFix?: () => void;
}) {
  const [minimized, setMinimized] = useState(false);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const summary = `${errors || diagnostics.length} ${
    (errors || diagnostics.length) === 1 ? "error" : "errors"
  }`;

  if (minimized) {
    return (
      <button
        type="button"
        onClick={() => setMinimized(false)}
        className="absolute right-3 bottom-3 z-10 flex cursor-pointer items-center gap-1.5 rounded-full bg-rose-600 px-3 py-1.5 text-xs font-medium text-white shadow-lg hover:bg-rose-500"
        data-testid="preview-error-pill"
      >
        <AlertTriangle className="size-3.5" aria-hidden="true" />
        {kind === "build" ? "Build failed" : "Runtime errors"} · {summary}
      </button>
    );
  }

  return (
    <div
      className="absolute inset-0 z-10 flex items-start justify-center overflow-y-auto bg-zinc-950/40 p-4 backdrop-blur-[2px] sm:p-8"
      role="alert"
      data-testid={kind === "build" ? "preview-error-overlay" : "preview-runtime-overlay"}
    >
      <div className="w-full max-w-2xl overflow-hidden rounded-xl border border-rose-200 bg-white shadow-2xl">
        <div className="flex items-center gap-3 border-b border-rose-100 bg-rose-50 px-4 py-3">
          <span className="flex size-8 items-center justify-center rounded-lg bg-rose-100 text-rose-600">
            <AlertTriangle className="size-4" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <h3 className="text-sm font-semibold text-rose-900">
              {kind === "build" ? "The preview didn’t build" : "The app hit errors while running"}
            </h3>
            <p className="text-xs text-rose-700">
              {summary}.{" "}
              {kind === "build"
                ? `Fix ${errors === 1 || diagnostics.length === 1 ? "it" : "them"} and save to rebuild.`
                : "It built, but what you see may be broken or blank."}
            </p>
          </div>
          {onFix ? (
            <Button
              size="sm"
              variant="primary"
              onClick={onFix}
              data-testid="preview-fix-with-agent"
            >
              <Wand2 />
              Fix with agent
            </Button>
          ) : null}
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setMinimized(true)}
            aria-label={kind === "build" ? "Minimize build errors" : "Minimize runtime errors"}
          >
            <ChevronDown />
            Hide
          </Button>
        </div>
        <ul className="max-h-[60dvh] divide-y divide-zinc-100 overflow-y-auto">
          {diagnostics.map((diagnostic, index) => {
            const location = diagnosticLocation(diagnostic);
            const Icon = diagnostic.severity === "error" ? CircleAlert : TriangleAlert;
            const body = (
              <>
                <Icon
                  className={cn(
                    "mt-0.5 size-4 shrink-0",
                    diagnostic.severity === "error" ? "text-rose-500" : "text-amber-500",
                  )}
                  aria-label={diagnostic.severity}
                />
                <span className="min-w-0 flex-1">
                  {location ? (
                    <span className="block font-mono text-xs text-zinc-500 group-hover:text-indigo-700">
                      {location}
                    </span>
                  ) : null}
                  <span className="mt-0.5 block font-mono text-[13px] whitespace-pre-wrap text-zinc-800">
                    {diagnostic.message}
                  </span>
                </span>
              </>
            );
            return (
              <li key={index} data-testid="preview-diagnostic">
                {diagnostic.file ? (
                  <button
                    type="button"
                    className="group flex w-full cursor-pointer items-start gap-3 px-4 py-3 text-left hover:bg-zinc-50"
                    onClick={() =>
                      diagnostic.file && onOpenFile(diagnostic.file, diagnostic.line ?? undefined)
                    }
                    title={`Open ${diagnostic.file}`}
                  >
                    {body}
                  </button>
                ) : (
                  <div className="flex items-start gap-3 px-4 py-3">{body}</div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

/** The words a "Fix with agent" run starts from: every problem with its place. */
export function describeProblemsForAgent(
  kind: "build" | "runtime",
  diagnostics: PreviewDiagnostic[],
): string {
  const lines = diagnostics.map((diagnostic, index) => {
    const location = diagnosticLocation(diagnostic);
    return `${index + 1}. ${location ? `${location}: ` : ""}${diagnostic.message}`;
  });
  const heading =
    kind === "build"
      ? "The preview does not build. Fix these errors:"
      : "The preview builds, but the running app reports these errors. Find the cause and fix it:";
  return `${heading}\n\n${lines.join("\n")}`;
}
