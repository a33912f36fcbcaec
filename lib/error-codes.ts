import { patchErrorDescriptions } from "@/lib/patch/error-codes";

/**
 * Every error code a client of Patchwork can see (PRODUCT.md §2 and §3), in one browser-safe
 * list: the HTTP answers with their status, and the codes a run ends with (`run.failed`) or a tool
 * fails with (`tool.failed`, `patch_code`). Servers and the panel both read them from here.
 */
export const errorStatusByCode = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN_ORIGIN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REVISION_CONFLICT: 409,
  CODING_AGENT_RUN_ACTIVE: 409,
  APPROVAL_ALREADY_DECIDED: 409,
  CODING_AGENT_MODEL_UNAVAILABLE: 400,
  CODING_AGENT_ENGINE_UNAVAILABLE: 400,
  CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME: 400,
  PAYLOAD_TOO_LARGE: 413,
  MISDIRECTED_REQUEST: 421,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof errorStatusByCode;

/** Codes a run can end with or a tool can fail with, beyond the HTTP ones. */
export const runErrorCodes = {
  interrupted: "CODING_AGENT_RUN_INTERRUPTED",
  modelError: "CODING_AGENT_MODEL_ERROR",
  modelTimeout: "CODING_AGENT_MODEL_TIMEOUT",
  rateLimited: "CODING_AGENT_RATE_LIMITED",
  iterationLimit: "CODING_AGENT_ITERATION_LIMIT",
  revisionConflict: "REVISION_CONFLICT",
  internal: "CODING_AGENT_INTERNAL_ERROR",
  toolInputValidation: "TOOL_INPUT_VALIDATION_FAILED",
  toolTimeout: "TOOL_TIMEOUT",
  toolDeclined: "TOOL_APPROVAL_DECLINED",
  toolExecutionFailed: "TOOL_EXECUTION_FAILED",
  toolNotFound: "TOOL_NOT_FOUND",
  toolNotAllowed: "TOOL_NOT_ALLOWED",
  fileNotFound: "FILE_NOT_FOUND",
  fileIsBinary: "FILE_IS_BINARY",
  verificationFailed: "VERIFICATION_FAILED",
  engineCrashed: "CODING_AGENT_ENGINE_CRASHED",
  engineUnavailable: "CODING_AGENT_ENGINE_UNAVAILABLE",
  engineUnsupportedRuntime: "CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME",
  budgetExceeded: "CODING_AGENT_BUDGET_EXCEEDED",
  loopDetected: "CODING_AGENT_LOOP_DETECTED",
  payloadTooLarge: "PAYLOAD_TOO_LARGE",
} as const;

export type RunErrorCode = (typeof runErrorCodes)[keyof typeof runErrorCodes];
export type PatchErrorCode = keyof typeof patchErrorDescriptions;

/** What a `run.failed` or `tool.failed` may carry as its code (a run may also end on an HTTP one). */
export type RunOrToolErrorCode = RunErrorCode | PatchErrorCode | ErrorCode;

const runOrToolCodes: ReadonlySet<string> = new Set([
  ...Object.values(runErrorCodes),
  ...Object.keys(patchErrorDescriptions),
  ...Object.keys(errorStatusByCode),
]);

export function isRunOrToolErrorCode(code: string): code is RunOrToolErrorCode {
  return runOrToolCodes.has(code);
}
