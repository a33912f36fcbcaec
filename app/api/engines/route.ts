import { listEngineStatuses } from "@/lib/agent/engines/registry";
import { otherMethods, route } from "@/lib/api/handler";
import { serializeEngineStatus } from "@/lib/api/serializers";

export const dynamic = "force-dynamic";

export const GET = route(async () =>
  Response.json({ engines: (await listEngineStatuses()).map(serializeEngineStatus) }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
