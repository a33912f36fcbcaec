import { listEngineStatuses } from "@/lib/agent/engines/registry";
import { otherMethods, route } from "@/lib/api/handler";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json({ engines: await listEngineStatuses() }));

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
