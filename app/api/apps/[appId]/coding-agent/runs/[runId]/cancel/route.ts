import { getDatabaseHandle } from "@/db/client";
import { activeRunStatuses } from "@/db/queries/runs";
import { cancelRun } from "@/lib/agent";
import { otherMethods, parseWith, route } from "@/lib/api/handler";
import { serializeRun } from "@/lib/api/serializers";
import { runParamsSchema } from "../../schemas";

export const dynamic = "force-dynamic";

/** Asks the run to stop; 202 because the stream, not this answer, reports `run.cancelled`. */
export const POST = route<{ appId: string; runId: string }>(async (_request, { params }) => {
  const { appId, runId } = parseWith(runParamsSchema, params, "path");
  const run = await cancelRun(await getDatabaseHandle(), { appId, runId });
  const active = (activeRunStatuses as readonly string[]).includes(run.status);
  return Response.json(
    { run: serializeRun(run), cancel_requested: active },
    { status: active ? 202 : 200 },
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
