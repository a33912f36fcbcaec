import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { queryKeys } from "@/components/queries";
import { agentApiClient } from "./agent-api-client";

/** Query keys of the agent panel; per-app keys start with the kind, then the app. */
export const agentQueryKeys = {
  models: () => ["models"] as const,
  runs: (appId: string) => ["agent-runs", appId] as const,
  /** A finished run's rendered view, so remounting a turn does not replay its stream. */
  runView: (runId: string) => ["agent-run-view", runId] as const,
};

export const modelsQuery = () =>
  queryOptions({
    queryKey: agentQueryKeys.models(),
    queryFn: ({ signal }) => agentApiClient.listModels(signal),
    // Discovery is cached server-side for 10 s; a configured model rarely appears mid-session.
    staleTime: 30_000,
  });

export const runsQuery = (appId: string) =>
  queryOptions({
    queryKey: agentQueryKeys.runs(appId),
    queryFn: ({ signal }) => agentApiClient.listRuns(appId, signal),
  });

/**
 * What a run's new revision makes stale: the app (its draft head, which the preview follows),
 * the file tree, the history and the checkpoints. File and preview queries are keyed by
 * revision, so they follow the new head by themselves.
 */
export async function invalidateAfterRevision(queryClient: QueryClient, appId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.app(appId) }),
    queryClient.invalidateQueries({ queryKey: ["files", appId] }),
    queryClient.invalidateQueries({ queryKey: queryKeys.revisions(appId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.checkpoints(appId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.apps() }),
  ]);
}
