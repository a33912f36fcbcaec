"use client";

import { useQuery } from "@tanstack/react-query";
import { ExternalLink, Monitor, RotateCw, Smartphone, Tablet } from "lucide-react";
import { useState } from "react";
import { isApiError, previewUrl } from "@/components/api-client";
import { previewStatusQuery } from "@/components/queries";
import { RelativeTime } from "@/components/relative-time";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/class-names";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { Spinner } from "@/components/ui/spinner";
import { describeProblemsForAgent, PreviewErrorOverlay } from "./preview-error-overlay";
import { PreviewFrame } from "./preview-frame";
import { runtimeErrorKindLabels } from "./preview-messages";
import { type RuntimeError, useRuntimeErrors } from "./use-runtime-errors";

export type PreviewWidth = "mobile" | "tablet" | "desktop";

/** The widths a person checks an app at: a phone, a tablet in portrait, the whole pane. */
const previewWidths: Record<PreviewWidth, number | null> = {
  mobile: 390,
  tablet: 768,
  desktop: null,
};

/** The live preview of the draft head, its build status, and the tools around it. */
export function PreviewPane({
  appId,
  draftRevisionId,
  onOpenFile,
  onFixWithAgent,
}: {
  appId: string;
  draftRevisionId: string | null;
  onOpenFile: (path: string, line?: number) => void;
  /** Starts an agent run with these words (the errors and where they are). */
  onFixWithAgent?: (input: string) => void;
}) {
  const [reloadCount, setReloadCount] = useState(0);
  const [width, setWidth] = useState<PreviewWidth>("desktop");
  const framePixels = previewWidths[width];
  const status = useQuery({
    ...previewStatusQuery(appId, draftRevisionId ?? ""),
    enabled: !!draftRevisionId,
  });
  const src = draftRevisionId ? previewUrl(appId, draftRevisionId) : null;
  const runtime = useRuntimeErrors(appId);
  const runtimeErrors = src ? runtime.errorsFor(src) : [];
  const runtimeDiagnostics = runtimeErrors.map(toDiagnostic);
  const buildFailed = status.data !== undefined && !status.data.ok;

  const reload = () => {
    setReloadCount((count) => count + 1);
    void status.refetch();
  };

  return (
    <section
      className="flex h-full min-h-0 min-w-0 flex-1 flex-col bg-white"
      aria-label="Preview"
      data-testid="preview-pane"
    >
      <div className="flex h-10 shrink-0 items-center gap-2 border-b border-zinc-200 px-3">
        <div
          className="flex min-w-0 flex-1 items-center gap-2 text-xs text-zinc-500"
          aria-live="polite"
          data-testid="preview-status"
        >
          {!draftRevisionId || status.isPending ? (
            <>
              <Spinner className="size-3.5" />
              <span>Building…</span>
            </>
          ) : status.isError ? (
            <>
              <span className="size-2 shrink-0 rounded-full bg-zinc-300" aria-hidden="true" />
              <span className="truncate">
                {isApiError(status.error, "NOT_FOUND")
                  ? "Build status unavailable"
                  : "Couldn’t get the build status"}
              </span>
            </>
          ) : status.data.ok && runtimeErrors.length > 0 ? (
            <>
              <span className="size-2 shrink-0 rounded-full bg-rose-500" aria-hidden="true" />
              <span className="truncate text-rose-700" data-testid="preview-runtime-status">
                Built, but{" "}
                {runtimeErrors.length === 1 ? "an error" : `${runtimeErrors.length} errors`} while
                running
              </span>
            </>
          ) : status.data.ok ? (
            <>
              <span className="size-2 shrink-0 rounded-full bg-emerald-500" aria-hidden="true" />
              <span className="truncate">
                {status.data.built_at ? (
                  <>
                    Built <RelativeTime value={status.data.built_at} />
                  </>
                ) : (
                  "Built"
                )}
                {status.data.duration_ms !== null ? (
                  <span className="text-zinc-400"> · {Math.round(status.data.duration_ms)} ms</span>
                ) : null}
              </span>
            </>
          ) : (
            <>
              <span className="size-2 shrink-0 rounded-full bg-rose-500" aria-hidden="true" />
              <span className="truncate text-rose-700">Build failed</span>
            </>
          )}
        </div>
        <SegmentedControl<PreviewWidth>
          label="Preview width"
          value={width}
          onChange={setWidth}
          options={[
            {
              value: "mobile",
              label: <Smartphone />,
              accessibleLabel: "Phone width (390 px)",
              testId: "preview-width-mobile",
            },
            {
              value: "tablet",
              label: <Tablet />,
              accessibleLabel: "Tablet width (768 px)",
              testId: "preview-width-tablet",
            },
            {
              value: "desktop",
              label: <Monitor />,
              accessibleLabel: "Full width",
              testId: "preview-width-desktop",
            },
          ]}
        />
        <Button
          size="icon-sm"
          variant="ghost"
          onClick={reload}
          disabled={!src}
          aria-label="Reload preview"
          title="Reload preview"
          data-testid="preview-reload"
        >
          <RotateCw />
        </Button>
        {src ? (
          <a
            href={src}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex size-7 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
            aria-label="Open preview in a new tab"
            title="Open preview in a new tab"
            data-testid="preview-open"
          >
            <ExternalLink className="size-4" aria-hidden="true" />
          </a>
        ) : null}
      </div>
      <div className="relative min-h-0 flex-1 overflow-x-auto bg-zinc-100">
        <div
          className={cn(
            "relative h-full",
            framePixels !== null && "mx-auto bg-white shadow-sm ring-1 ring-zinc-200",
          )}
          style={framePixels !== null ? { width: framePixels } : undefined}
          data-testid="preview-viewport"
          data-width={width}
        >
          {src ? (
            <PreviewFrame
              src={src}
              reloadCount={reloadCount}
              title="App preview"
              onRuntimeError={runtime.report}
              onFrameLoad={runtime.loaded}
            />
          ) : null}
        </div>
        {status.data && buildFailed ? (
          <PreviewErrorOverlay
            key={status.data.revision_id}
            diagnostics={status.data.diagnostics}
            onOpenFile={onOpenFile}
            onFix={
              onFixWithAgent
                ? () => onFixWithAgent(describeProblemsForAgent("build", status.data.diagnostics))
                : undefined
            }
          />
        ) : runtimeDiagnostics.length > 0 && src ? (
          <PreviewErrorOverlay
            key={src}
            kind="runtime"
            diagnostics={runtimeDiagnostics}
            onOpenFile={onOpenFile}
            onFix={
              onFixWithAgent
                ? () => onFixWithAgent(describeProblemsForAgent("runtime", runtimeDiagnostics))
                : undefined
            }
          />
        ) : null}
      </div>
    </section>
  );
}

/** A runtime error in the overlay's terms: its kind and message, at its place in the app. */
function toDiagnostic(error: RuntimeError) {
  return {
    file: error.location?.file ?? null,
    line: error.location?.line ?? null,
    column: error.location?.column ?? null,
    message: `${runtimeErrorKindLabels[error.kind]}: ${error.message}`,
    severity: "error" as const,
  };
}
