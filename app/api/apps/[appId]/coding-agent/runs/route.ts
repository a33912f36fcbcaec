import { getDatabaseHandle } from "@/db/client";
import { listRunsForApp } from "@/db/queries/runs";
import { createRun } from "@/lib/agent";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { serializeRun } from "@/lib/api/serializers";
import { getApp } from "@/lib/workspace";
import { createRunBodySchema } from "./schemas";

export const dynamic = "force-dynamic";

/** The app's conversation: every run, oldest first. */
export const GET = route<{ appId: string }>(async (_request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const handle = await getDatabaseHandle();
  await getApp(handle.db, { appId });
  const runs = await listRunsForApp(handle.db, { appId, limit: 200 });
  return Response.json({ runs: runs.map(serializeRun) });
});

export const POST = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const body = await parseJsonBody(request, createRunBodySchema);
  const run = await createRun(await getDatabaseHandle(), {
    appId,
    input: body.input,
    messages: body.messages,
    modelId: body.model_id ?? null,
    engine: body.engine ?? null,
    approvalPolicy: body.approval_policy ?? null,
  });
  return Response.json({ run: serializeRun(run) }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"]);
