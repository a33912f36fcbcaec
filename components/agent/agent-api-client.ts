import { ApiError, request as requestJson } from "@/components/api-client";
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
  decideApproval: (
    appId: string,
    runId: string,
    approvalId: string,
    decision: "accept" | "accept_for_session" | "decline",
  ) =>
    requestJson<{ approval: { id: string; decision: string } }>(
      "POST",
      `${runsPath(appId)}/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(approvalId)}`,
      { body: { decision } },
    ),
  cancelRun: (appId: string, runId: string) =>
    requestJson<{ run: AgentRun; cancel_requested: boolean }>(
      "POST",
      `${runsPath(appId)}/${encodeURIComponent(runId)}/cancel`,
    ).then((result) => result.run),
};
