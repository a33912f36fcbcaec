import { DiffStat } from "@/components/diff/diff-stat";
import type { ToolCallItem } from "./run-event-reducer";
import { humanizeCode, humanizeKey } from "./tool-presentation";

/** Keys shown elsewhere in the row, or too bulky to list (per-file change records). */
const hiddenDetailKeys = new Set([
  "changes",
  "path",
  "start_line",
  "end_line",
  "total_lines",
  // The check's screenshot is drawn as a thumbnail; its verdict is the row's status.
  "screenshot",
  "verdict",
  "visible_text",
]);

/** A diagnostic (patch failure, build error) as one readable line: where, then what. */
export function describeDiagnostic(diagnostic: Record<string, unknown>): {
  location: string | null;
  message: string;
  expected: string[];
} {
  const path = stringOf(diagnostic.path) ?? stringOf(diagnostic.file);
  const line = numberOf(diagnostic.line);
  const hunk = numberOf(diagnostic.hunk_index);
  // Patch failures number their hunks from 1 within the file.
  const location = path
    ? `${path}${line !== null ? `:${line}` : ""}${hunk !== null ? ` (hunk ${hunk})` : ""}`
    : hunk !== null
      ? `Hunk ${hunk}`
      : null;
  const nearest = diagnostic.nearest_match as Record<string, unknown> | null | undefined;
  const nearestLine =
    nearest && typeof nearest === "object" ? numberOf(nearest.line ?? nearest.start_line) : null;
  const base = stringOf(diagnostic.message) ?? stringOf(diagnostic.reason) ?? "Problem";
  const message = nearestLine !== null ? `${base} (closest match at line ${nearestLine})` : base;
  const expected = Array.isArray(diagnostic.expected_lines)
    ? diagnostic.expected_lines.filter((entry): entry is string => typeof entry === "string")
    : [];
  return { location, message, expected };
}

function stringOf(value: unknown): string | null {
  return typeof value === "string" && value ? value : null;
}

function numberOf(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function changedFiles(
  item: ToolCallItem,
): { path: string; additions: number; deletions: number }[] {
  const changes = Array.isArray(item.details.changes) ? item.details.changes : [];
  const fromChanges = changes.flatMap((change) => {
    if (typeof change !== "object" || change === null) return [];
    const record = change as Record<string, unknown>;
    const path = stringOf(record.path);
    return path
      ? [
          {
            path,
            additions: numberOf(record.additions) ?? 0,
            deletions: numberOf(record.deletions) ?? 0,
          },
        ]
      : [];
  });
  return fromChanges.length > 0
    ? fromChanges
    : item.files.map((path) => ({ path, additions: 0, deletions: 0 }));
}

/** The expanded part of a tool row: what it did or why it failed, in words — never raw JSON. */
export function ToolCallDetails({ id, item }: { id: string; item: ToolCallItem }) {
  const failure = item.failure;
  const facts = Object.entries(item.details).filter(
    ([key, value]) =>
      !hiddenDetailKeys.has(key) &&
      (typeof value === "string" || typeof value === "number" || typeof value === "boolean"),
  );
  const range =
    typeof item.details.start_line === "number" && typeof item.details.end_line === "number"
      ? `Lines ${item.details.start_line}–${item.details.end_line}${
          typeof item.details.total_lines === "number" ? ` of ${item.details.total_lines}` : ""
        }`
      : null;
  const files = item.status === "completed" ? changedFiles(item) : [];
  const diagnostics = item.diagnostics.map(describeDiagnostic);

  return (
    <div
      id={id}
      className="mt-0.5 mb-1 ml-7 space-y-1.5 border-l border-zinc-200 py-0.5 pl-3 text-xs text-zinc-600"
      data-testid="agent-tool-row-details"
    >
      {failure ? (
        <>
          <p className="text-zinc-700">{failure.message}</p>
          <p className="text-zinc-400">
            {humanizeCode(failure.code)}
            {failure.patchFailureCount && failure.patchFailureCount > 1
              ? ` · failed ${failure.patchFailureCount} times on this file`
              : ""}
          </p>
        </>
      ) : item.summary ? (
        <p>{item.summary}</p>
      ) : null}
      {range && !item.summary ? <p>{range}</p> : null}
      {failure && failure.fields.length > 0 ? (
        <ul className="space-y-0.5">
          {failure.fields.map((field, index) => (
            <li key={index}>
              <code className="font-mono text-zinc-800">{field.field}</code>: {field.message}
            </li>
          ))}
        </ul>
      ) : null}
      {diagnostics.length > 0 ? (
        <ul className="space-y-1">
          {diagnostics.slice(0, 8).map((diagnostic, index) => (
            <li key={index}>
              {diagnostic.location ? (
                <span className="font-mono text-zinc-800">{diagnostic.location}</span>
              ) : null}
              {diagnostic.location ? " — " : null}
              {diagnostic.message}
              {diagnostic.expected.length > 0 ? (
                <pre className="mt-1 max-h-32 overflow-auto rounded bg-zinc-50 px-2 py-1 font-mono text-[11px] leading-4 text-zinc-700">
                  {diagnostic.expected.slice(0, 8).join("\n")}
                </pre>
              ) : null}
            </li>
          ))}
          {diagnostics.length > 8 ? (
            <li className="text-zinc-400">and {diagnostics.length - 8} more</li>
          ) : null}
        </ul>
      ) : null}
      {failure && failure.recommendedRefresh.length > 0 ? (
        <p className="text-zinc-500">
          The agent was told to re-read {failure.recommendedRefresh.join(", ")}.
        </p>
      ) : null}
      {files.length > 0 ? (
        <ul className="space-y-0.5">
          {files.map((file) => (
            <li key={file.path} className="flex items-center gap-2">
              <span className="truncate font-mono text-zinc-800">{file.path}</span>
              <DiffStat additions={file.additions} deletions={file.deletions} />
            </li>
          ))}
        </ul>
      ) : null}
      {facts.length > 0 ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
          {facts.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-zinc-400">{humanizeKey(key)}</dt>
              <dd className="truncate">{String(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
