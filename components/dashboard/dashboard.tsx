"use client";

import { useQuery } from "@tanstack/react-query";
import { LayoutGrid, RotateCw } from "lucide-react";
import { useRef } from "react";
import { errorMessage } from "@/components/api-client";
import { BrandMark } from "@/components/brand-mark";
import { HeaderActions } from "@/components/header-actions";
import { appsQuery } from "@/components/queries";
import { SessionMenu } from "@/components/session-menu";
import { Button } from "@/components/ui/button";
import { AppListItem } from "./app-list-item";
import { CreateAppForm } from "./create-app-form";

/** The home page: every app, newest edit first, and the form that starts a new one. */
export function Dashboard({ authEnabled }: { authEnabled: boolean }) {
  const apps = useQuery(appsQuery());
  const nameInput = useRef<HTMLInputElement>(null);
  const sorted = apps.data
    ? [...apps.data].sort((left, right) => right.updated_at.localeCompare(left.updated_at))
    : [];

  return (
    <div className="flex h-dvh min-h-0 flex-col">
      <header className="flex h-14 shrink-0 items-center border-b border-zinc-200/80 bg-white/80 px-6 backdrop-blur">
        <BrandMark />
        <div className="ml-auto flex items-center gap-1.5">
          <HeaderActions />
          {authEnabled ? <SessionMenu /> : null}
        </div>
      </header>
      <main className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto w-full max-w-3xl px-6 py-10 sm:py-14">
          <div className="mb-6">
            <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Apps</h1>
            <p className="mt-1 text-sm text-zinc-500">
              Start from a React + Tailwind starter, then edit, preview and publish.
            </p>
          </div>

          <CreateAppForm inputRef={nameInput} />

          <section aria-labelledby="your-apps" className="mt-8">
            <div className="mb-2 flex items-center justify-between">
              <h2
                id="your-apps"
                className="text-xs font-medium tracking-wide text-zinc-500 uppercase"
              >
                Your apps
              </h2>
              {apps.data ? (
                <span className="text-xs text-zinc-400" data-testid="app-count">
                  {apps.data.length} {apps.data.length === 1 ? "app" : "apps"}
                </span>
              ) : null}
            </div>

            {apps.isPending ? (
              <ul
                className="divide-y divide-zinc-100 overflow-hidden rounded-xl border border-zinc-200 bg-white"
                aria-busy="true"
                aria-label="Loading apps"
              >
                {[0, 1, 2].map((index) => (
                  <li key={index} className="flex items-center gap-3 px-4 py-3">
                    <span className="size-9 animate-pulse rounded-lg bg-zinc-100" />
                    <span className="flex-1 space-y-2">
                      <span className="block h-3 w-40 animate-pulse rounded bg-zinc-100" />
                      <span className="block h-2.5 w-24 animate-pulse rounded bg-zinc-100" />
                    </span>
                  </li>
                ))}
              </ul>
            ) : apps.isError ? (
              <div
                role="alert"
                className="flex items-center justify-between gap-4 rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-700"
              >
                <span>Couldn’t load your apps. {errorMessage(apps.error)}</span>
                <Button size="sm" onClick={() => apps.refetch()}>
                  <RotateCw />
                  Retry
                </Button>
              </div>
            ) : sorted.length === 0 ? (
              <div
                className="flex flex-col items-center rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-14 text-center"
                data-testid="empty-apps"
              >
                <span className="flex size-11 items-center justify-center rounded-xl bg-zinc-100 text-zinc-500">
                  <LayoutGrid className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-sm font-medium text-zinc-900">No apps yet</h3>
                <p className="mt-1 max-w-xs text-sm text-zinc-500">
                  Give your first app a name above. It starts as a small landing page you can
                  preview and change right away.
                </p>
                <Button className="mt-5" onClick={() => nameInput.current?.focus()}>
                  Name your first app
                </Button>
              </div>
            ) : (
              <ul
                className="divide-y divide-zinc-100 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs"
                data-testid="app-list"
              >
                {sorted.map((app) => (
                  <AppListItem key={app.id} app={app} />
                ))}
              </ul>
            )}
          </section>
        </div>
      </main>
    </div>
  );
}
