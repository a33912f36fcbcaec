import { getDatabase } from "@/db/client";
import {
  otherMethods,
  parseJsonBody,
  parseSearchParams,
  parseWith,
  route,
} from "@/lib/api/handler";
import { serializeRevision } from "@/lib/api/serializers";
import { commitRevision, readFile } from "@/lib/workspace";
import { revisionQuerySchema } from "../schemas";
import { deleteFileQuerySchema, filePathParamsSchema, saveFileBodySchema } from "./schemas";

export const dynamic = "force-dynamic";
type Params = { appId: string; path: string[] };

function parseParams(params: Params) {
  const parsed = parseWith(filePathParamsSchema, params, "path");
  // Next.js hands over decoded segments; joined they are validated by the store's path policy.
  return { appId: parsed.appId, path: parsed.path.join("/") };
}

export const GET = route<Params>(async (request, { params }) => {
  const { appId, path } = parseParams(params);
  const query = parseSearchParams(request, revisionQuerySchema);
  const file = await readFile(await getDatabase(), { appId, path, revisionId: query.revision });
  const { bytes: _bytes, ...json } = file;
  return Response.json(json);
});

export const PUT = route<Params>(async (request, { params }) => {
  const { appId, path } = parseParams(params);
  const body = await parseJsonBody(request, saveFileBodySchema);
  const { revision, created } = await commitRevision(await getDatabase(), {
    appId,
    baseRevisionId: body.base_revision_id,
    changes: [{ type: "write", path, content: body.content }],
    source: "manual",
    message: body.message ?? `Edited ${path}`,
  });
  return Response.json(
    { revision: serializeRevision(revision), created },
    { status: created ? 201 : 200 },
  );
});

export const DELETE = route<Params>(async (request, { params }) => {
  const { appId, path } = parseParams(params);
  const query = parseSearchParams(request, deleteFileQuerySchema);
  const { revision } = await commitRevision(await getDatabase(), {
    appId,
    baseRevisionId: query.base_revision_id,
    changes: [{ type: "delete", path }],
    source: "manual",
    message: `Deleted ${path}`,
  });
  return Response.json({ revision: serializeRevision(revision) });
});

export const { POST, PATCH } = otherMethods(["GET", "PUT", "DELETE"]);
