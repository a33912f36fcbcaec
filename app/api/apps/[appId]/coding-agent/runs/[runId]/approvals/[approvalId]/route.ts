import { getDatabaseHandle } from "@/db/client";
import { getRun } from "@/lib/agent";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { PatchworkError } from "@/lib/errors";
import { approvalBodySchema, approvalParamsSchema } from "../../../schemas";

export const dynamic = "force-dynamic";

/**
 * Answers an engine's approval request. Only external engines ask for approvals, and none is
 * built yet, so every approval id is unknown: NOT_FOUND, never a silent success.
 */
export const POST = route<{ appId: string; runId: string; approvalId: string }>(
  async (request, { params }) => {
    const { appId, runId, approvalId } = parseWith(approvalParamsSchema, params, "path");
    await parseJsonBody(request, approvalBodySchema);
    await getRun(await getDatabaseHandle(), { appId, runId });
    throw new PatchworkError("NOT_FOUND", "This run has no pending approval with that id.", {
      details: { approval_id: approvalId },
    });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
