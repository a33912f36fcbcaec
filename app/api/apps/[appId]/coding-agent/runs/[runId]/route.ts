import { getDatabaseHandle } from "@/db/client";
import { getRun } from "@/lib/agent";
import { otherMethods, parseWith, route } from "@/lib/api/handler";
import { serializeRun } from "@/lib/api/serializers";
import { runParamsSchema } from "../schemas";

export const dynamic = "force-dynamic";

export const GET = route<{ appId: string; runId: string }>(async (_request, { params }) => {
  const { appId, runId } = parseWith(runParamsSchema, params, "path");
  return Response.json({
    run: serializeRun(await getRun(await getDatabaseHandle(), { appId, runId })),
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
