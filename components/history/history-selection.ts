import type { Checkpoint, Revision, RevisionSource } from "@/components/api-types";

/** What the history drawer has selected: a revision, or a checkpoint pointing at one. */
export type HistorySelection =
  | { kind: "revision"; id: string }
  | { kind: "checkpoint"; id: string };

/** A revision's message, or a sensible title when it has none. */
export function revisionTitle(revision: Revision): string {
  if (revision.message?.trim()) return revision.message.trim();
  const fallback: Record<RevisionSource, string> = {
    template: "Created from the starter",
    manual: "Manual edit",
    agent: "Agent edit",
    restore: "Restored an earlier version",
    import: "Imported files",
  };
  return fallback[revision.source] ?? "Revision";
}

/** A checkpoint's label, else the first words of the run it belongs to. */
export function checkpointTitle(checkpoint: Checkpoint): string {
  if (checkpoint.label.trim()) return checkpoint.label.trim();
  if (checkpoint.run_input?.trim()) return checkpoint.run_input.trim();
  return checkpoint.kind === "pre_run"
    ? "Before an agent run"
    : checkpoint.kind === "post_run"
      ? "After an agent run"
      : "Checkpoint";
}
