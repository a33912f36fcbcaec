import { type ErrorCode, errorStatusByCode } from "./error-codes";
import { logServerError } from "./log";

// The codes live in the one browser-safe list (lib/error-codes.ts), shared with the run events.
export { type ErrorCode, errorStatusByCode } from "./error-codes";

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/**
 * The one error class of Patchwork. Every failure a caller can act on carries a code from
 * PRODUCT.md §2; everything else becomes a 500 whose cause is logged, never returned.
 */
export class PatchworkError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: unknown; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "PatchworkError";
    this.code = code;
    this.status = errorStatusByCode[code];
    this.details = options.details;
  }

  static isInstance(value: unknown): value is PatchworkError {
    return (
      value instanceof Error &&
      (value as { name?: string }).name === "PatchworkError" &&
      "code" in value
    );
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }

  toResponse(): Response {
    return Response.json(this.toBody(), { status: this.status });
  }
}

/** Maps anything thrown in a route to the error envelope; unexpected causes go to the log only. */
export function errorToResponse(error: unknown): Response {
  if (PatchworkError.isInstance(error)) return error.toResponse();
  logServerError("unexpected error", error);
  return new PatchworkError("INTERNAL_ERROR", "Something went wrong on the server.").toResponse();
}
