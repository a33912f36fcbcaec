import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import {
  type ApprovalDecisionValue,
  type ApprovalKind,
  type ApprovalRequestRow,
  approvalRequest,
} from "@/db/schema";

/** Stores a pending approval request of a run. */
export async function insertApprovalRequest(
  db: Executor,
  values: {
    runId: string;
    kind: ApprovalKind;
    description: string;
    context: Record<string, unknown>;
  },
): Promise<ApprovalRequestRow> {
  const [row] = await db.insert(approvalRequest).values(values).returning();
  return row;
}

/** One approval request of a run, or undefined. */
export async function getRunApprovalRequest(
  db: Executor,
  { runId, id }: { runId: string; id: string },
): Promise<ApprovalRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(approvalRequest)
    .where(and(eq(approvalRequest.runId, runId), eq(approvalRequest.id, id)));
  return row;
}

/** Every approval request of a run, oldest first (pending ones have no decision). */
export async function listRunApprovalRequests(
  db: Executor,
  { runId }: { runId: string },
): Promise<ApprovalRequestRow[]> {
  return db
    .select()
    .from(approvalRequest)
    .where(eq(approvalRequest.runId, runId))
    .orderBy(asc(approvalRequest.createdAt), asc(approvalRequest.id));
}

/**
 * Decides a pending request exactly once: returns the updated row, or undefined when it was
 * already decided (by the person, the policy or the timeout) — whoever comes second loses.
 */
export async function decideApprovalRequest(
  db: Executor,
  {
    runId,
    id,
    decision,
    decidedBy,
  }: { runId: string; id: string; decision: ApprovalDecisionValue; decidedBy: string },
): Promise<ApprovalRequestRow | undefined> {
  const [row] = await db
    .update(approvalRequest)
    .set({ decision, decidedBy, decidedAt: new Date() })
    .where(
      and(
        eq(approvalRequest.runId, runId),
        eq(approvalRequest.id, id),
        isNull(approvalRequest.decision),
      ),
    )
    .returning();
  return row;
}
