import { otherMethods, route } from "@/lib/api/handler";
import { listEngines } from "@/lib/agent/engines/engine-status";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json({ engines: listEngines() }));

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
