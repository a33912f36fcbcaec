import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { apiClient } from "./api-client";
import type { App } from "./api-types";

/** Query keys, one per kind of server state; per-app keys start with the kind, then the app. */
export const queryKeys = {
  apps: () => ["apps"] as const,
  app: (appId: string) => ["app", appId] as const,
  files: (appId: string, revisionId: string | null) => ["files", appId, revisionId] as const,
  file: (appId: string, revisionId: string | null, path: string) =>
    ["file", appId, revisionId, path] as const,
  revisions: (appId: string) => ["revisions", appId] as const,
  checkpoints: (appId: string) => ["checkpoints", appId] as const,
  preview: (appId: string, revisionId: string) => ["preview", appId, revisionId] as const,
  diff: (appId: string, revisionId: string, againstRevisionId: string | null) =>
    ["diff", appId, revisionId, againstRevisionId] as const,
};

export const appsQuery = () =>
  queryOptions({
    queryKey: queryKeys.apps(),
    queryFn: ({ signal }) => apiClient.listApps(signal).then((body) => body.apps),
  });

export const appQuery = (appId: string) =>
  queryOptions({
    queryKey: queryKeys.app(appId),
    queryFn: ({ signal }) => apiClient.getApp(appId, signal).then((body) => body.app),
  });

export const filesQuery = (appId: string, revisionId: string | null) =>
  queryOptions({
    queryKey: queryKeys.files(appId, revisionId),
    queryFn: ({ signal }) => apiClient.listFiles(appId, revisionId, signal),
    // A revision never changes, so its listing never goes stale.
    staleTime: revisionId ? Number.POSITIVE_INFINITY : 0,
  });

export const fileQuery = (appId: string, revisionId: string | null, path: string) =>
  queryOptions({
    queryKey: queryKeys.file(appId, revisionId, path),
    queryFn: ({ signal }) => apiClient.readFile(appId, revisionId, path, signal),
    staleTime: revisionId ? Number.POSITIVE_INFINITY : 0,
  });

export const revisionsQuery = (appId: string) =>
  queryOptions({
    queryKey: queryKeys.revisions(appId),
    queryFn: ({ signal }) => apiClient.listRevisions(appId, signal),
  });

export const checkpointsQuery = (appId: string) =>
  queryOptions({
    queryKey: queryKeys.checkpoints(appId),
    queryFn: ({ signal }) =>
      apiClient.listCheckpoints(appId, signal).then((body) => body.checkpoints),
  });

export const previewStatusQuery = (appId: string, revisionId: string) =>
  queryOptions({
    queryKey: queryKeys.preview(appId, revisionId),
    queryFn: ({ signal }) => apiClient.getPreviewStatus(appId, revisionId, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const diffQuery = (appId: string, revisionId: string, againstRevisionId: string | null) =>
  queryOptions({
    queryKey: queryKeys.diff(appId, revisionId, againstRevisionId),
    queryFn: ({ signal }) =>
      apiClient.getRevisionDiff(appId, revisionId, againstRevisionId, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * After anything moves the draft head (save, restore), show the new head at once and refresh
 * what depends on it; files, file and preview queries follow because their keys name the revision.
 */
export async function applyDraftHead(
  queryClient: QueryClient,
  appId: string,
  draftRevisionId: string,
): Promise<void> {
  queryClient.setQueryData<App>(queryKeys.app(appId), (app) =>
    app
      ? { ...app, draft_revision_id: draftRevisionId, updated_at: new Date().toISOString() }
      : app,
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.app(appId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.apps() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.revisions(appId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.checkpoints(appId) }),
  ]);
}
