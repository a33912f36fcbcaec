import { otherMethods, route } from "@/lib/api/handler";
import { listModels, refreshProviderSettings } from "@/lib/models";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  await refreshProviderSettings();
  return Response.json({ models: await listModels() });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
