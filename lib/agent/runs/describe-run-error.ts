import { runErrorCodes } from "@/lib/agent/events/event-types";
import { PatchworkError } from "@/lib/errors";
import { logServerError } from "@/lib/log";
import { RateLimitReached } from "@/lib/models/rate-limit";
import { RunFailure } from "./run-failure";

interface ProviderError {
  name?: string;
  statusCode?: number;
  message?: string;
  lastError?: unknown;
  errors?: unknown[];
  responseHeaders?: Record<string, string>;
}

/**
 * Turns whatever ended a run into a code and one sentence for `run.failed`. Provider errors keep
 * their status but not their bodies (which may echo request details); unknown errors are logged
 * and described generically.
 */
export function describeRunError(error: unknown): { code: string; message: string } {
  if (RunFailure.isInstance(error)) return { code: error.code, message: error.message };
  if (PatchworkError.isInstance(error)) return { code: error.code, message: error.message };
  const rateLimit = RateLimitReached.find(error);
  if (rateLimit) return { code: runErrorCodes.rateLimited, message: rateLimit.message };
  const providerError = unwrapRetryError(error as ProviderError);
  if (providerError?.name === "AI_APICallError" || typeof providerError?.statusCode === "number") {
    const status = providerError.statusCode;
    if (status === 429) {
      return {
        code: runErrorCodes.rateLimited,
        message:
          "The model provider is rate limiting requests (429) and retries did not get through. Try again shortly.",
      };
    }
    if (status === 401 || status === 403) {
      return {
        code: runErrorCodes.modelError,
        message: `The model provider refused the credentials (${status}). Check the API key.`,
      };
    }
    return {
      code: runErrorCodes.modelError,
      message: status
        ? `The model provider answered ${status}${status >= 500 ? " (a server error)" : ""}; the run stopped.`
        : "The model provider could not be reached; the run stopped.",
    };
  }
  if (
    providerError?.name === "AI_NoSuchModelError" ||
    providerError?.name === "AI_LoadAPIKeyError"
  ) {
    return {
      code: runErrorCodes.modelError,
      message: "The model is not configured correctly on this server.",
    };
  }
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    return {
      code: runErrorCodes.modelError,
      message: "The model provider could not be reached; the run stopped.",
    };
  }
  logServerError("run failed unexpectedly", error);
  return {
    code: runErrorCodes.internal,
    message: "The run failed because of an unexpected server error.",
  };
}

function unwrapRetryError(error: ProviderError | undefined): ProviderError | undefined {
  if (error?.name === "AI_RetryError") {
    return unwrapRetryError((error.lastError ?? error.errors?.at(-1)) as ProviderError);
  }
  return error;
}
