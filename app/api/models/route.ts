import { otherMethods, route } from "@/lib/api/handler";
import { listModels } from "@/lib/models";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json({ models: await listModels() }));

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
