import { getDatabaseHandle } from "@/db/client";
import { getRunEventBus } from "@/lib/agent";
import { decideApproval } from "@/lib/agent/runs/run-approvals";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { serializeApprovalRequest } from "@/lib/api/serializers";
import { approvalBodySchema, approvalParamsSchema } from "../../../schemas";

export const dynamic = "force-dynamic";

/** Answers an engine's approval request once; a second answer is 409 APPROVAL_ALREADY_DECIDED. */
export const POST = route<{ appId: string; runId: string; approvalId: string }>(
  async (request, { params }) => {
    const { appId, runId, approvalId } = parseWith(approvalParamsSchema, params, "path");
    const { decision } = await parseJsonBody(request, approvalBodySchema);
    const handle = await getDatabaseHandle();
    const decided = await decideApproval(handle, await getRunEventBus(handle), {
      appId,
      runId,
      approvalId,
      decision,
    });
    return Response.json({ approval: serializeApprovalRequest(decided) });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
