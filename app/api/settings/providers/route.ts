import { getDatabase } from "@/db/client";
import { otherMethods, route } from "@/lib/api/handler";
import { serializeProviderSetting } from "@/lib/api/serializers";
import { describeProviderSettings } from "@/lib/models";

export const dynamic = "force-dynamic";

export const GET = route(async () =>
  Response.json({
    providers: (await describeProviderSettings(await getDatabase())).map(serializeProviderSetting),
  }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
