import { route } from "@/lib/api/handler";
import { listEngines } from "@/lib/engines";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json({ engines: listEngines() }));
