import { getDatabase } from "@/db/client";
import { otherMethods, parseJsonBody, parseWith, route } from "@/lib/api/handler";
import { appParamsSchema } from "@/lib/api/schemas";
import { serializeRevision } from "@/lib/api/serializers";
import { applyFileOperations, type FileOperation } from "@/lib/workspace";
import { fileOperationsBodySchema } from "./schemas";

export const dynamic = "force-dynamic";

export const POST = route<{ appId: string }>(async (request, { params }) => {
  const { appId } = parseWith(appParamsSchema, params, "path");
  const body = await parseJsonBody(request, fileOperationsBodySchema);
  const operations = body.operations.map((operation): FileOperation => {
    if (operation.type !== "upload") return operation;
    return {
      type: "upload",
      path: operation.path,
      bytes: new Uint8Array(Buffer.from(operation.content_base64, "base64")),
    };
  });
  const { revision, created } = await applyFileOperations(await getDatabase(), {
    appId,
    baseRevisionId: body.base_revision_id,
    operations,
    message: body.message,
  });
  return Response.json(
    { revision: serializeRevision(revision), created },
    { status: created ? 201 : 200 },
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
