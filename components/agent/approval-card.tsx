"use client";

import { ShieldQuestion } from "lucide-react";
import { memo, useMemo, useState } from "react";
import { DiffFile } from "@/components/diff";
import { Button } from "@/components/ui/button";
import { agentApiClient } from "./agent-api-client";
import type { ApprovalChoice, ApprovalItem } from "./run-event-reducer";

const decisionLabels: Record<ApprovalChoice, string> = {
  accept: "Accepted",
  accept_for_session: "Accepted for this session",
  decline: "Declined",
};

/**
 * An engine's request among the tool rows: what it wants (the diff, or the command and its
 * folder) and Accept / Accept for this session / Decline while pending; the outcome once decided
 * (a timeout is shown as such). Built from replayed events, so it survives a reload.
 */
export const ApprovalCard = memo(function ApprovalCard({
  appId,
  runId,
  item,
}: {
  appId: string;
  runId: string;
  item: ApprovalItem;
}) {
  const [sending, setSending] = useState<ApprovalChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const diffFile = useMemo(() => diffFromPatch(item.diff), [item.diff]);

  async function decide(decision: ApprovalChoice) {
    setSending(decision);
    setError(null);
    try {
      await agentApiClient.decideApproval(appId, runId, item.approvalId, decision);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setSending(null);
    }
  }

  const outcome =
    item.decision === null
      ? null
      : item.decidedBy === "timeout"
        ? "Declined: no answer in time"
        : item.decidedBy === "cancel"
          ? "Declined: the run was stopped"
          : decisionLabels[item.decision];

  return (
    <div
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50/60 px-3 py-2 text-sm"
      data-testid="approval-card"
      data-approval-id={item.approvalId}
      data-decision={item.decision ?? "pending"}
    >
      <p className="flex items-start gap-1.5 font-medium text-zinc-800">
        <ShieldQuestion className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
        {item.description}
      </p>
      {item.command ? (
        <pre className="overflow-x-auto rounded bg-zinc-900 px-2 py-1.5 text-xs text-zinc-100">
          <code>{item.command}</code>
          {item.cwd ? <span className="block text-zinc-400">in {item.cwd}</span> : null}
        </pre>
      ) : null}
      {diffFile ? <DiffFile file={diffFile} /> : null}
      {outcome ? (
        <p className="text-xs text-zinc-600" data-testid="approval-outcome">
          {outcome}
        </p>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="primary"
            disabled={sending !== null}
            onClick={() => decide("accept")}
            data-testid="approval-accept"
          >
            Accept
          </Button>
          <Button
            size="sm"
            disabled={sending !== null}
            onClick={() => decide("accept_for_session")}
            data-testid="approval-accept-session"
          >
            Accept for this session
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={sending !== null}
            onClick={() => decide("decline")}
            data-testid="approval-decline"
          >
            Decline
          </Button>
        </div>
      )}
      {error ? (
        <p className="text-xs text-rose-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
});

/** The request's unified diff as the shared diff view's file (first file's path and counts). */
function diffFromPatch(patch: string | null) {
  if (!patch) return null;
  const path = /^\+\+\+ (?:b\/)?(.+)$/m.exec(patch)?.[1]?.trim() ?? "change";
  const lines = patch.split("\n");
  const additions = lines.filter((line) => line.startsWith("+") && !line.startsWith("+++")).length;
  const deletions = lines.filter((line) => line.startsWith("-") && !line.startsWith("---")).length;
  return {
    path,
    status: "modified" as const,
    binary: false,
    additions,
    deletions,
    patch: patch.slice(Math.max(0, patch.indexOf("---"))),
  };
}
