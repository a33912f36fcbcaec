import type { PreviewDiagnostic } from "./preview-types";

/** Styles of the overlay page; inlined and allowed by hash like everything else in the preview. */
export const errorOverlayStyles = `
:root { color-scheme: dark; }
body { margin: 0; min-height: 100vh; background: #1c1017; color: #fde8ec;
  font: 14px/1.5 ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 56rem; margin: 0 auto; padding: 2rem 1.5rem; }
h1 { margin: 0; font-size: 1.125rem; color: #ff8fa3; }
p { margin: .5rem 0 1.5rem; color: #f5c2cc; }
ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .75rem; }
li { border: 1px solid #5c2633; border-left: 4px solid #ff5c7a; border-radius: .5rem;
  background: #2a141c; padding: .75rem 1rem; }
li.warning { border-left-color: #f5b94a; }
code, .message { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; }
code { color: #ffc9d3; font-weight: 600; }
.message { white-space: pre-wrap; word-break: break-word; }
`;

/** "src/App.tsx:3:10", "src/App.tsx:3", "src/App.tsx" or "(build)" for a diagnostic's place. */
export function formatDiagnosticLocation(diagnostic: PreviewDiagnostic): string {
  if (!diagnostic.file) return "(build)";
  const line = diagnostic.line === null ? "" : `:${diagnostic.line}`;
  const column =
    diagnostic.line !== null && diagnostic.column !== null ? `:${diagnostic.column}` : "";
  return `${diagnostic.file}${line}${column}`;
}

/**
 * The body of the page shown instead of the app when its build failed: every diagnostic as
 * "file:line:column — message", errors first. Contains no script; it needs none.
 */
export function errorOverlayBody(diagnostics: PreviewDiagnostic[]): string {
  const ordered = [
    ...diagnostics.filter((diagnostic) => diagnostic.severity === "error"),
    ...diagnostics.filter((diagnostic) => diagnostic.severity === "warning"),
  ];
  const errorCount = ordered.filter((diagnostic) => diagnostic.severity === "error").length;
  const items = ordered
    .map(
      (diagnostic) =>
        `<li class="${diagnostic.severity}" data-testid="preview-diagnostic">` +
        `<code>${escapeHtml(formatDiagnosticLocation(diagnostic))}</code> — ` +
        `<span class="message">${diagnostic.severity === "warning" ? "warning: " : ""}` +
        `${escapeHtml(diagnostic.message)}</span></li>`,
    )
    .join("\n");
  const summary =
    errorCount === 1 ? "1 error stops the build." : `${errorCount} errors stop the build.`;
  return (
    `<main role="alert" data-testid="preview-error-overlay">\n` +
    `<h1>The preview could not be built</h1>\n` +
    `<p>${summary} Fix ${errorCount === 1 ? "it" : "them"} and save; the preview rebuilds from the new revision.</p>\n` +
    `<ol>\n${items}\n</ol>\n</main>`
  );
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
