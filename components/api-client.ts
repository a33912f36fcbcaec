import type {
  App,
  Checkpoint,
  FileContent,
  FileListing,
  PreviewStatus,
  Revision,
  RevisionDiff,
  RevisionList,
} from "./api-types";

/** Every failed API call, carrying the envelope `{error: {code, message, details}}` it answered. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;

  constructor(input: { code: string; message: string; status: number; details?: unknown }) {
    super(input.message);
    this.name = "ApiError";
    this.code = input.code;
    this.status = input.status;
    this.details = input.details;
  }

  static isInstance(value: unknown): value is ApiError {
    return value instanceof ApiError;
  }
}

/** True when the error is an ApiError with this code. */
export function isApiError(error: unknown, code: string): error is ApiError {
  return error instanceof ApiError && error.code === code;
}

/** A human sentence for any thrown value, for inline error messages. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong. Please try again.";
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One JSON request to the builder's API; failures become an ApiError from the envelope. */
export async function request<Result>(
  method: Method,
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
  if (response.status === 204) return undefined as Result;
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const envelope = (json as { error?: { code?: string; message?: string; details?: unknown } })
      ?.error;
    throw new ApiError({
      code: envelope?.code ?? `HTTP_${response.status}`,
      message:
        envelope?.message ?? `The server answered ${response.status} ${response.statusText}.`,
      status: response.status,
      details: envelope?.details,
    });
  }
  return json as Result;
}

const appPath = (appId: string) => `/api/apps/${encodeURIComponent(appId)}`;

/** Encodes each segment of a workspace path, keeping the slashes between them. */
export function encodeFilePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

function withRevision(path: string, revisionId: string | null | undefined): string {
  return revisionId ? `${path}?revision=${encodeURIComponent(revisionId)}` : path;
}

/** The URL the preview iframe loads for one revision of the draft. */
export function previewUrl(appId: string, revisionId: string): string {
  return `/preview/${encodeURIComponent(appId)}?revision=${encodeURIComponent(revisionId)}`;
}

export const apiClient = {
  listApps: (signal?: AbortSignal) => request<{ apps: App[] }>("GET", "/api/apps", { signal }),
  createApp: (input: { name: string }) =>
    request<{ app: App }>("POST", "/api/apps", { body: input }),
  getApp: (appId: string, signal?: AbortSignal) =>
    request<{ app: App }>("GET", appPath(appId), { signal }),
  renameApp: (appId: string, input: { name: string }) =>
    request<{ app: App }>("PATCH", appPath(appId), { body: input }),
  deleteApp: (appId: string) => request<void>("DELETE", appPath(appId)),

  listFiles: (appId: string, revisionId: string | null, signal?: AbortSignal) =>
    request<FileListing>("GET", withRevision(`${appPath(appId)}/files`, revisionId), { signal }),
  readFile: (appId: string, revisionId: string | null, path: string, signal?: AbortSignal) =>
    request<FileContent>(
      "GET",
      withRevision(`${appPath(appId)}/files/${encodeFilePath(path)}`, revisionId),
      { signal },
    ),
  saveFile: (appId: string, input: { path: string; content: string; baseRevisionId: string }) =>
    request<{ revision: Revision; created: boolean }>(
      "PUT",
      `${appPath(appId)}/files/${encodeFilePath(input.path)}`,
      { body: { content: input.content, base_revision_id: input.baseRevisionId } },
    ),

  listRevisions: (appId: string, signal?: AbortSignal) =>
    request<RevisionList>("GET", `${appPath(appId)}/revisions`, { signal }),
  getRevisionDiff: (
    appId: string,
    revisionId: string,
    againstRevisionId: string | null,
    signal?: AbortSignal,
  ) =>
    request<RevisionDiff>(
      "GET",
      `${appPath(appId)}/revisions/${encodeURIComponent(revisionId)}/diff${
        againstRevisionId ? `?against=${encodeURIComponent(againstRevisionId)}` : ""
      }`,
      { signal },
    ),
  restoreRevision: (appId: string, revisionId: string) =>
    request<{ revision: Revision }>(
      "POST",
      `${appPath(appId)}/revisions/${encodeURIComponent(revisionId)}/restore`,
    ),

  listCheckpoints: (appId: string, signal?: AbortSignal) =>
    request<{ checkpoints: Checkpoint[] }>("GET", `${appPath(appId)}/coding-agent/checkpoints`, {
      signal,
    }),
  restoreCheckpoint: (appId: string, checkpointId: string) =>
    request<{ checkpoint: Checkpoint; revision: Revision }>(
      "POST",
      `${appPath(appId)}/coding-agent/checkpoints/${encodeURIComponent(checkpointId)}/restore`,
    ),

  publishApp: (appId: string, input: { revisionId?: string } = {}) =>
    request<{ app: App }>("POST", `${appPath(appId)}/publish`, {
      body: input.revisionId ? { revision_id: input.revisionId } : {},
    }),
  unpublishApp: (appId: string) => request<{ app: App }>("DELETE", `${appPath(appId)}/publish`),

  getPreviewStatus: (appId: string, revisionId: string, signal?: AbortSignal) =>
    request<PreviewStatus>("GET", withRevision(`${appPath(appId)}/preview`, revisionId), {
      signal,
    }),

  signIn: (input: { token: string }) =>
    request<{ ok: boolean }>("POST", "/api/auth/signin", { body: input }),
  signOut: () => request<{ ok: boolean }>("POST", "/api/auth/signout"),
};
