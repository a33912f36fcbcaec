import { ApiError } from "@/components/api-client";
import type { AgentRun, CreateRunBody, ModelInfo } from "./agent-api-types";

const appPath = (appId: string) => `/api/apps/${encodeURIComponent(appId)}`;
const runsPath = (appId: string) => `${appPath(appId)}/coding-agent/runs`;

/** The URL of a run's event stream (SSE); the resume point goes in `Last-Event-ID`. */
export function runStreamUrl(appId: string, runId: string): string {
  return `${runsPath(appId)}/${encodeURIComponent(runId)}/stream`;
}

/** Reads an error envelope `{error: {code, message, details}}` into an ApiError. */
export async function readApiError(response: Response): Promise<ApiError> {
  let envelope: { code?: string; message?: string; details?: unknown } | undefined;
  try {
    envelope = ((await response.json()) as { error?: typeof envelope })?.error;
  } catch {
    envelope = undefined;
  }
  return new ApiError({
    code: envelope?.code ?? `HTTP_${response.status}`,
    message: envelope?.message ?? `The server answered ${response.status} ${response.statusText}.`,
    status: response.status,
    details: envelope?.details,
  });
}

async function requestJson<Result>(
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; signal?: AbortSignal } = {},
): Promise<Result> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      signal: options.signal,
      credentials: "same-origin",
      headers: {
        accept: "application/json",
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError({
      code: "NETWORK_ERROR",
      message: "Patchwork could not be reached. Check that the server is running.",
      status: 0,
      details: { cause: String(cause) },
    });
  }
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as Result;
}

/** The coding-agent endpoints the panel calls; the rest comes from the shared apiClient. */
export const agentApiClient = {
  listModels: (signal?: AbortSignal) =>
    requestJson<{ models: ModelInfo[] }>("GET", "/api/models", { signal }).then(
      (body) => body.models,
    ),
  listRuns: (appId: string, signal?: AbortSignal) =>
    requestJson<{ runs: AgentRun[] }>("GET", runsPath(appId), { signal }).then((body) => body.runs),
  createRun: (appId: string, body: CreateRunBody) =>
    requestJson<{ run: AgentRun }>("POST", runsPath(appId), { body }).then((result) => result.run),
  cancelRun: (appId: string, runId: string) =>
    requestJson<{ run: AgentRun; cancel_requested: boolean }>(
      "POST",
      `${runsPath(appId)}/${encodeURIComponent(runId)}/cancel`,
    ).then((result) => result.run),
};
