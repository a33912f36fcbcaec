import { errorResponse } from "@/lib/api/handler";

export const dynamic = "force-dynamic";

/** Any /api path no route serves: the JSON envelope, not Next's HTML 404 page. */
async function notFound(request: Request): Promise<Response> {
  return errorResponse("NOT_FOUND", "No API route matches this path.", {
    path: new URL(request.url).pathname,
  });
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
