"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiClient } from "@/components/api-client";
import type { Checkpoint } from "@/components/api-types";
import { applyDraftHead } from "@/components/queries";

/**
 * Restores a checkpoint as a new forward revision and moves the workspace to it: the preview,
 * file tree and history follow the app's new draft head.
 */
export function useRestoreCheckpoint(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (checkpoint: Checkpoint) => apiClient.restoreCheckpoint(appId, checkpoint.id),
    onSuccess: async ({ revision }) => {
      await applyDraftHead(queryClient, appId, revision.id);
    },
  });
}
