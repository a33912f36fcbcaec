"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiClient, isApiError } from "@/components/api-client";
import { applyDraftHead, appQuery, fileQuery } from "@/components/queries";
import type { EditSession } from "./edit-session";

/**
 * Saves the open file as a new revision on top of the revision the edit started from. When the
 * draft moved on meanwhile but this file did not change there, nothing the person would lose is
 * at stake, so the save is retried on the new head; otherwise REVISION_CONFLICT reaches the UI.
 */
export function useSaveFile(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (session: EditSession) => {
      const save = async (baseRevisionId: string) => {
        const { revision, created } = await apiClient.saveFile(appId, {
          path: session.path,
          content: session.value,
          baseRevisionId,
        });
        return { revisionId: revision.id, created };
      };
      try {
        return await save(session.baseRevisionId);
      } catch (error) {
        if (!isApiError(error, "REVISION_CONFLICT")) throw error;
        const app = await queryClient.fetchQuery({ ...appQuery(appId), staleTime: 0 });
        const head = app.draft_revision_id;
        if (!head || head === session.baseRevisionId) throw error;
        const atHead = await queryClient
          .fetchQuery(fileQuery(appId, head, session.path))
          .catch(() => null);
        // Already saved (e.g. by a retry): the head has exactly these edits.
        if (atHead?.content === session.value) return { revisionId: head, created: false };
        if (atHead?.content !== session.original) throw error;
        return await save(head);
      }
    },
    onSuccess: ({ revisionId, created }) => {
      // The new head shows at once; the refetches behind it need not hold up "Saved".
      if (created) void applyDraftHead(queryClient, appId, revisionId);
    },
  });
}
