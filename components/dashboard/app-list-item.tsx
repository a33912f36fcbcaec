"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ChevronRight, Globe, Pencil, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { apiClient, errorMessage } from "@/components/api-client";
import type { App } from "@/components/api-types";
import { queryKeys } from "@/components/queries";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { AppMonogram } from "./app-monogram";

/** One app on the dashboard: open it, rename it in place, or delete it after confirming. */
export function AppListItem({ app }: { app: App }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [draftName, setDraftName] = useState(app.name);
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  const rename = useMutation({
    mutationFn: (name: string) => apiClient.renameApp(app.id, { name }),
    onSuccess: ({ app: renamed }) => {
      queryClient.setQueryData<App[]>(queryKeys.apps(), (apps) =>
        apps?.map((candidate) => (candidate.id === renamed.id ? renamed : candidate)),
      );
      queryClient.setQueryData(queryKeys.app(renamed.id), renamed);
      setRenaming(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps() });
    },
  });

  const remove = useMutation({
    mutationFn: () => apiClient.deleteApp(app.id),
    onSuccess: () => {
      queryClient.setQueryData<App[]>(queryKeys.apps(), (apps) =>
        apps?.filter((candidate) => candidate.id !== app.id),
      );
      queryClient.removeQueries({ queryKey: queryKeys.app(app.id) });
      setConfirmingDelete(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps() });
    },
  });

  const startRenaming = () => {
    rename.reset();
    setDraftName(app.name);
    setRenaming(true);
  };

  return (
    <li
      className="group relative flex items-center gap-3 px-4 py-3 transition-colors hover:bg-zinc-50/80"
      data-testid="app-row"
      data-app-id={app.id}
    >
      <AppMonogram id={app.id} name={app.name} />
      {renaming ? (
        <form
          className="flex min-w-0 flex-1 flex-col gap-1"
          onSubmit={(event) => {
            event.preventDefault();
            const name = draftName.trim();
            if (!name || name === app.name) return setRenaming(false);
            rename.mutate(name);
          }}
        >
          <div className="flex items-center gap-2">
            <label htmlFor={`rename-${app.id}`} className="sr-only">
              New name for {app.name}
            </label>
            <Input
              id={`rename-${app.id}`}
              value={draftName}
              onChange={(event) => setDraftName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Escape") {
                  event.preventDefault();
                  setRenaming(false);
                }
              }}
              maxLength={80}
              autoFocus
              onFocus={(event) => event.currentTarget.select()}
              autoComplete="off"
              disabled={rename.isPending}
              className="h-8"
              data-testid="rename-input"
            />
            <Button
              type="submit"
              size="sm"
              variant="primary"
              disabled={rename.isPending}
              data-testid="rename-save"
            >
              {rename.isPending ? <Spinner className="text-current" /> : null}
              Save
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setRenaming(false)}>
              Cancel
            </Button>
          </div>
          {rename.isError ? (
            <p role="alert" className="text-xs text-rose-600">
              {errorMessage(rename.error)}
            </p>
          ) : null}
        </form>
      ) : (
        <>
          <div className="min-w-0 flex-1">
            <div className="flex items-center gap-2">
              <Link
                href={`/apps/${app.id}`}
                className="truncate text-sm font-medium text-zinc-900 after:absolute after:inset-0 after:content-['']"
                data-testid="app-row-name"
              >
                {app.name}
              </Link>
              {app.public_path ? (
                <Badge tone="green" data-testid="app-row-published">
                  <Globe className="size-3" aria-hidden="true" />
                  Published
                </Badge>
              ) : null}
            </div>
            <p className="mt-0.5 truncate text-xs text-zinc-500">
              Edited <RelativeTime value={app.updated_at} />
              <span aria-hidden="true"> · </span>
              <span className="font-mono">{app.slug}</span>
            </p>
          </div>
          <div className="relative flex items-center gap-1 opacity-100 transition-opacity sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Rename ${app.name}`}
              title="Rename"
              onClick={startRenaming}
              data-testid="app-row-rename"
            >
              <Pencil />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Delete ${app.name}`}
              title="Delete"
              className="hover:bg-rose-50 hover:text-rose-600"
              onClick={() => {
                remove.reset();
                setConfirmingDelete(true);
              }}
              data-testid="app-row-delete"
            >
              <Trash2 />
            </Button>
          </div>
          <ChevronRight className="size-4 text-zinc-300" aria-hidden="true" />
        </>
      )}
      <ConfirmDialog
        open={confirmingDelete}
        title={`Delete “${app.name}”?`}
        description="This deletes the app with all of its files, history and its published version. This cannot be undone."
        confirmLabel="Delete app"
        tone="danger"
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmingDelete(false)}
        data-testid="delete-app-dialog"
      />
    </li>
  );
}
