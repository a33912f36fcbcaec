import "server-only";
import type { z } from "zod";
import { type ErrorCode, errorToResponse, PatchworkError } from "@/lib/errors";
import { readBodyWithLimit } from "./read-body";

// A 1 MiB file as JSON text, with escaping, fits comfortably; anything bigger is refused unread.
const maxJsonBodyBytes = 4 * 1024 * 1024;

type RouteContext<Params> = { params: Promise<Params> };

/**
 * Wraps a route handler so every thrown error becomes the one error envelope of PRODUCT.md §2.
 * Handlers stay thin: parse, call one function in lib/, return JSON.
 */
export function route<Params = Record<string, never>>(
  handler: (request: Request, context: { params: Params }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<Params>): Promise<Response> => {
    try {
      return await handler(request, { params: await context.params });
    } catch (error) {
      return errorToResponse(error);
    }
  };
}

/** Validates with zod; failures answer VALIDATION_FAILED with the issues as details. */
export function parseWith<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what = "request",
): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new PatchworkError("VALIDATION_FAILED", `The ${what} is not valid.`, {
      details: {
        issues: parsed.error.issues.map((issue) => ({
          path: issue.path.join("."),
          message: issue.message,
          code: issue.code,
        })),
      },
    });
  }
  return parsed.data;
}

/** Reads a JSON body with a size cap and validates it. An empty body is parsed as `{}`. */
export async function parseJsonBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const bytes = await readBodyWithLimit(request, {
    limit: maxJsonBodyBytes,
    what: "Request bodies",
  });
  const text = new TextDecoder().decode(bytes);
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new PatchworkError("VALIDATION_FAILED", "The request body is not valid JSON.", {
        cause,
      });
    }
  }
  return parseWith(schema, value, "request body");
}

export function parseSearchParams<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): z.infer<Schema> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  return parseWith(schema, params, "query string");
}

export function errorResponse(code: ErrorCode, message: string, details?: unknown): Response {
  return new PatchworkError(code, message, { details }).toResponse();
}

const routeMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type RouteMethod = (typeof routeMethods)[number];

/**
 * Handlers for the methods a route does not serve, so they answer 405 with the envelope and an
 * `Allow` header instead of Next's empty 405. Spread into the route's exports:
 * `export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"]);`
 */
export function otherMethods<Allowed extends RouteMethod>(
  allowed: readonly Allowed[],
): Record<Exclude<RouteMethod, Allowed>, () => Promise<Response>> {
  const allow = [...allowed, ...(allowed.includes("GET" as Allowed) ? ["HEAD"] : []), "OPTIONS"];
  const reject = async () => {
    const response = errorResponse(
      "METHOD_NOT_ALLOWED",
      `This route answers ${allow.join(", ")} only.`,
      { allow },
    );
    response.headers.set("Allow", allow.join(", "));
    return response;
  };
  return Object.fromEntries(
    routeMethods
      .filter((method) => !allowed.includes(method as Allowed))
      .map((method) => [method, reject]),
  ) as Record<Exclude<RouteMethod, Allowed>, () => Promise<Response>>;
}
