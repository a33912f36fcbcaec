"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, CloudOff, Copy, ExternalLink, Globe, Upload } from "lucide-react";
import { useState } from "react";
import { apiClient, errorMessage } from "@/components/api-client";
import type { App } from "@/components/api-types";
import { previewStatusQuery, queryKeys } from "@/components/queries";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Spinner } from "@/components/ui/spinner";

/**
 * Publish pins the draft head at /p/{slug}. Once live: the public link, copy, publishing newer
 * changes, and unpublishing (after confirming, since visitors lose the page).
 */
export function PublishControl({ app }: { app: App }) {
  const queryClient = useQueryClient();
  const [copied, setCopied] = useState(false);
  const [confirmingUnpublish, setConfirmingUnpublish] = useState(false);
  const [confirmingBrokenPublish, setConfirmingBrokenPublish] = useState(false);
  // The preview pane already asks for the draft's build status; this reads the same cache entry.
  const draftBuild = useQuery({
    ...previewStatusQuery(app.id, app.draft_revision_id ?? ""),
    enabled: !!app.draft_revision_id,
  });
  const draftBroken = draftBuild.data?.ok === false;

  const onApp = (updated: App) => {
    queryClient.setQueryData(queryKeys.app(app.id), updated);
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.app(app.id) });
  };
  const publish = useMutation({
    mutationFn: () =>
      apiClient.publishApp(app.id, { revisionId: app.draft_revision_id ?? undefined }),
    onSuccess: ({ app: updated }) => onApp(updated),
  });
  const unpublish = useMutation({
    mutationFn: () => apiClient.unpublishApp(app.id),
    onSuccess: ({ app: updated }) => {
      setConfirmingUnpublish(false);
      onApp(updated);
    },
  });

  const publicPath = app.public_path;
  const upToDate = !!publicPath && app.published_revision_id === app.draft_revision_id;

  const copy = async () => {
    if (!publicPath) return;
    await navigator.clipboard.writeText(new URL(publicPath, window.location.origin).href);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };

  return (
    <div className="flex items-center gap-2" data-testid="publish-control">
      {publicPath ? (
        <div className="flex h-8 items-center overflow-hidden rounded-lg border border-emerald-200 bg-emerald-50/60">
          <a
            href={publicPath}
            target="_blank"
            rel="noopener noreferrer"
            className="flex h-full max-w-56 items-center gap-1.5 pr-2 pl-2.5 text-xs font-medium text-emerald-800 hover:bg-emerald-100/70"
            title="Open the published app in a new tab"
            data-testid="public-url"
          >
            <span className="relative flex size-2 shrink-0" aria-hidden="true">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />
              <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
            </span>
            <span className="truncate font-mono">{publicPath}</span>
            <ExternalLink className="size-3 shrink-0 opacity-70" aria-hidden="true" />
          </a>
          <button
            type="button"
            onClick={copy}
            className="flex h-full cursor-pointer items-center border-l border-emerald-200 px-2 text-emerald-700 hover:bg-emerald-100/70"
            aria-label={copied ? "Public link copied" : "Copy public link"}
            title="Copy public link"
            data-testid="copy-public-url"
          >
            {copied ? (
              <Check className="size-3.5" aria-hidden="true" />
            ) : (
              <Copy className="size-3.5" aria-hidden="true" />
            )}
          </button>
          <button
            type="button"
            onClick={() => {
              unpublish.reset();
              setConfirmingUnpublish(true);
            }}
            className="flex h-full cursor-pointer items-center border-l border-emerald-200 px-2 text-emerald-700 hover:bg-rose-50 hover:text-rose-600"
            aria-label="Unpublish"
            title="Unpublish"
            data-testid="unpublish-button"
          >
            <CloudOff className="size-3.5" aria-hidden="true" />
          </button>
        </div>
      ) : null}
      <Button
        variant={publicPath && upToDate ? "secondary" : "primary"}
        size="md"
        className="h-8"
        onClick={() => (draftBroken ? setConfirmingBrokenPublish(true) : publish.mutate())}
        disabled={publish.isPending || upToDate || !app.draft_revision_id}
        title={upToDate ? "The published version is the current draft" : undefined}
        data-testid="publish-button"
      >
        {publish.isPending ? (
          <Spinner className="text-current" />
        ) : upToDate ? (
          <Check />
        ) : publicPath ? (
          <Upload />
        ) : (
          <Globe />
        )}
        {upToDate ? "Published" : publicPath ? "Publish changes" : "Publish"}
      </Button>
      {publish.isError ? (
        <span
          role="alert"
          className="max-w-48 truncate text-xs text-rose-600"
          title={errorMessage(publish.error)}
        >
          {errorMessage(publish.error)}
        </span>
      ) : null}
      <ConfirmDialog
        open={confirmingBrokenPublish}
        title="Publish a version that doesn’t build?"
        description="The current draft has build errors, so visitors would see an error page instead of your app. Fix the errors first, or publish anyway."
        confirmLabel="Publish anyway"
        tone="danger"
        onConfirm={() => {
          setConfirmingBrokenPublish(false);
          publish.mutate();
        }}
        onCancel={() => setConfirmingBrokenPublish(false)}
        data-testid="publish-broken-dialog"
      />
      <ConfirmDialog
        open={confirmingUnpublish}
        title="Unpublish this app?"
        description={
          <>
            <span className="font-mono text-zinc-800">{publicPath}</span> will stop working for
            everyone. You can publish again at any time, at the same address.
          </>
        }
        confirmLabel="Unpublish"
        tone="danger"
        pending={unpublish.isPending}
        error={unpublish.isError ? errorMessage(unpublish.error) : null}
        onConfirm={() => unpublish.mutate()}
        onCancel={() => setConfirmingUnpublish(false)}
        data-testid="unpublish-dialog"
      />
    </div>
  );
}
