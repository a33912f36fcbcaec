"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, RotateCw } from "lucide-react";
import Link from "next/link";
import { errorMessage } from "@/components/api-client";
import { BrandMark } from "@/components/brand-mark";
import { SessionMenu } from "@/components/session-menu";
import { ThemeToggle } from "@/components/theme-toggle";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { ProviderCard } from "./provider-card";
import { providerSettingsQuery } from "./provider-settings-api";

/** Settings: the model providers runs can use, added and tested here without a restart. */
export function SettingsPage({ authEnabled }: { authEnabled: boolean }) {
  const providers = useQuery(providerSettingsQuery());
  return (
    <div className="flex h-dvh min-h-0 flex-col">
      <header className="flex h-14 shrink-0 items-center gap-3 border-b border-zinc-200/80 bg-white/80 px-6 backdrop-blur">
        <BrandMark />
        <div className="ml-auto flex items-center gap-1.5">
          <ThemeToggle />
          {authEnabled ? <SessionMenu /> : null}
        </div>
      </header>
      <main className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto w-full max-w-2xl px-6 py-10">
          <Link
            href="/"
            className="mb-4 inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-900"
            data-testid="settings-back"
          >
            <ArrowLeft className="size-3.5" aria-hidden="true" />
            Apps
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Settings</h1>
          <section aria-labelledby="model-providers" className="mt-8">
            <h2 id="model-providers" className="text-sm font-semibold text-zinc-900">
              Model providers
            </h2>
            <p className="mt-1 mb-4 text-sm text-zinc-500">
              Keys are stored encrypted and never shown again after saving. A variable set in the
              server’s environment wins over what is saved here. A local Ollama is found by itself.
            </p>
            {providers.isPending ? (
              <div className="flex justify-center py-10">
                <Spinner label="Loading providers" />
              </div>
            ) : providers.isError ? (
              <div
                role="alert"
                className="flex items-center justify-between gap-4 rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-700"
              >
                <span>Couldn’t load the providers. {errorMessage(providers.error)}</span>
                <Button size="sm" onClick={() => providers.refetch()}>
                  <RotateCw />
                  Retry
                </Button>
              </div>
            ) : (
              <div className="space-y-3" data-testid="provider-list">
                {providers.data.map((provider) => (
                  <ProviderCard key={provider.provider} provider={provider} />
                ))}
              </div>
            )}
          </section>
        </div>
      </main>
    </div>
  );
}
