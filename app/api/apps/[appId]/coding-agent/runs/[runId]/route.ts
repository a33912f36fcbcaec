import { getDatabaseHandle } from "@/db/client";
import { listRunApprovalRequests } from "@/db/queries/approvals";
import { getRun } from "@/lib/agent";
import { otherMethods, parseWith, route } from "@/lib/api/handler";
import { serializeApprovalRequest, serializeRun } from "@/lib/api/serializers";
import { runParamsSchema } from "../schemas";

export const dynamic = "force-dynamic";

export const GET = route<{ appId: string; runId: string }>(async (_request, { params }) => {
  const { appId, runId } = parseWith(runParamsSchema, params, "path");
  const handle = await getDatabaseHandle();
  const run = await getRun(handle, { appId, runId });
  // Pending requests included, so a reloaded panel shows the cards still waiting.
  const approvals = await listRunApprovalRequests(handle.db, { runId: run.id });
  return Response.json({
    run: serializeRun(run),
    approvals: approvals.map(serializeApprovalRequest),
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
