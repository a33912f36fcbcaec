import type { CheckpointKind, RevisionSource } from "@/components/api-types";
import { Badge, type BadgeTone } from "@/components/ui/badge";

const sourcePresentation: Record<RevisionSource, { label: string; tone: BadgeTone }> = {
  template: { label: "Template", tone: "neutral" },
  manual: { label: "Manual", tone: "sky" },
  agent: { label: "Agent", tone: "violet" },
  restore: { label: "Restore", tone: "amber" },
  import: { label: "Import", tone: "neutral" },
};

const kindPresentation: Record<CheckpointKind, { label: string; tone: BadgeTone }> = {
  pre_run: { label: "Before run", tone: "neutral" },
  post_run: { label: "After run", tone: "violet" },
  manual: { label: "Manual", tone: "sky" },
};

/** Who made a revision: the starter template, a person, the agent, or a restore. */
export function RevisionSourceBadge({ source }: { source: RevisionSource }) {
  const presentation = sourcePresentation[source] ?? { label: source, tone: "neutral" };
  return (
    <Badge tone={presentation.tone} data-testid="revision-source">
      {presentation.label}
    </Badge>
  );
}

/** Why a checkpoint exists: before or after an agent run, or made by hand. */
export function CheckpointKindBadge({ kind }: { kind: CheckpointKind }) {
  const presentation = kindPresentation[kind] ?? { label: kind, tone: "neutral" };
  return (
    <Badge tone={presentation.tone} data-testid="checkpoint-kind">
      {presentation.label}
    </Badge>
  );
}
