"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, CircleCheck, KeyRound, PlugZap, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { agentQueryKeys } from "@/components/agent/agent-queries";
import { errorMessage } from "@/components/api-client";
import type { ProviderCheckResult, ProviderSetting } from "@/components/api-types";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import { providerSettingsApi, providerSettingsQuery } from "./provider-settings-api";

const keyPlaceholders: Record<string, string> = {
  openai: "sk-…",
  anthropic: "sk-ant-…",
  google: "AIza…",
  compatible: "Optional: the endpoint's key",
};

/**
 * One provider: where its configuration comes from, its saved key (masked), and a form to save,
 * test or remove it. The key field is write-only: what was saved is never sent back.
 */
export function ProviderCard({ provider }: { provider: ProviderSetting }) {
  const queryClient = useQueryClient();
  const fieldId = useId();
  const compatible = provider.provider === "compatible";
  const [apiKey, setApiKey] = useState("");
  const [baseUrl, setBaseUrl] = useState(provider.saved?.base_url ?? "");
  const [models, setModels] = useState(provider.saved?.models.join(", ") ?? "");
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const [check, setCheck] = useState<ProviderCheckResult | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: providerSettingsQuery().queryKey });
    // The model picker lists what is configured now.
    await queryClient.invalidateQueries({ queryKey: agentQueryKeys.models() });
  };

  const modelNames = models
    .split(/[,\s]+/)
    .map((name) => name.trim())
    .filter(Boolean);

  const save = useMutation({
    mutationFn: () =>
      providerSettingsApi.save(provider.provider, {
        ...(apiKey.trim() ? { api_key: apiKey.trim() } : {}),
        ...(compatible ? { base_url: baseUrl.trim(), models: modelNames } : {}),
      }),
    onSuccess: async () => {
      setApiKey("");
      setCheck(null);
      setSavedNote(
        provider.source === "environment"
          ? "Saved. The environment's setting still wins while it is set."
          : "Saved. New runs use it now.",
      );
      await refresh();
    },
  });

  const test = useMutation({
    mutationFn: () =>
      providerSettingsApi.check(provider.provider, {
        ...(apiKey.trim() ? { api_key: apiKey.trim() } : {}),
        ...(compatible && baseUrl.trim() ? { base_url: baseUrl.trim() } : {}),
      }),
    onSuccess: setCheck,
  });

  const remove = useMutation({
    mutationFn: () => providerSettingsApi.remove(provider.provider),
    onSuccess: async () => {
      setConfirmRemove(false);
      setBaseUrl("");
      setModels("");
      setCheck(null);
      setSavedNote("Removed.");
      await refresh();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSavedNote(null);
    save.mutate();
  };

  const canSave = compatible ? baseUrl.trim() !== "" : apiKey.trim() !== "";
  const failure = save.error ?? remove.error ?? test.error;

  return (
    <section
      className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs"
      aria-labelledby={`${fieldId}-title`}
      data-testid={`provider-${provider.provider}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`${fieldId}-title`} className="text-sm font-semibold text-zinc-900">
          {provider.display_name}
        </h3>
        <SourceBadge provider={provider} />
      </div>
      <p className="mt-1 text-xs leading-relaxed text-zinc-500" data-testid="provider-status">
        <SourceDescription provider={provider} />
      </p>
      {provider.saved?.problem ? (
        <p className="mt-2 flex items-start gap-1.5 text-xs text-rose-700" role="alert">
          <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          {provider.saved.problem}
        </p>
      ) : null}

      <form className="mt-3 space-y-2.5" onSubmit={submit}>
        {compatible ? (
          <Field label="Base URL" htmlFor={`${fieldId}-base-url`}>
            <Input
              id={`${fieldId}-base-url`}
              type="url"
              inputMode="url"
              placeholder="http://127.0.0.1:1234/v1"
              value={baseUrl}
              onChange={(event) => setBaseUrl(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              data-testid="provider-base-url"
            />
          </Field>
        ) : null}
        <Field label="API key" htmlFor={`${fieldId}-key`}>
          <Input
            id={`${fieldId}-key`}
            type="password"
            placeholder={
              provider.saved?.key_hint
                ? `Saved key ${provider.saved.key_hint}; type a new one to replace it`
                : keyPlaceholders[provider.provider]
            }
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            data-testid="provider-key"
          />
        </Field>
        {compatible ? (
          <Field
            label="Models"
            htmlFor={`${fieldId}-models`}
            hint="Optional, comma-separated; otherwise the endpoint's own list."
          >
            <Input
              id={`${fieldId}-models`}
              placeholder="qwen3-coder, llama-4-scout"
              value={models}
              onChange={(event) => setModels(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              data-testid="provider-models"
            />
          </Field>
        ) : null}

        <div className="flex flex-wrap items-center gap-2 pt-1">
          <Button
            type="submit"
            variant="primary"
            size="sm"
            disabled={!canSave || save.isPending}
            data-testid="provider-save"
          >
            <KeyRound aria-hidden="true" />
            {save.isPending ? "Saving…" : "Save"}
          </Button>
          <Button
            size="sm"
            onClick={() => {
              setSavedNote(null);
              test.mutate();
            }}
            disabled={
              test.isPending || (provider.source === null && !apiKey.trim() && !baseUrl.trim())
            }
            data-testid="provider-test"
          >
            <PlugZap aria-hidden="true" />
            {test.isPending ? "Testing…" : "Test"}
          </Button>
          {provider.saved ? (
            <Button
              size="sm"
              variant="ghost"
              className="ml-auto text-rose-600 hover:bg-rose-50 hover:text-rose-700"
              onClick={() => setConfirmRemove(true)}
              data-testid="provider-remove"
            >
              <Trash2 aria-hidden="true" />
              Remove
            </Button>
          ) : null}
        </div>
      </form>

      <div aria-live="polite" className="mt-2 space-y-1 empty:hidden">
        {check ? (
          check.ok ? (
            <p
              className="flex items-start gap-1.5 text-xs text-emerald-700"
              data-testid="provider-check"
              data-ok="true"
            >
              <CircleCheck className="mt-px size-3.5 shrink-0" aria-hidden="true" />
              Works: {check.endpoint} answered
              {check.model_count !== null
                ? ` with ${check.model_count} ${check.model_count === 1 ? "model" : "models"}`
                : ""}
              .
            </p>
          ) : (
            <p
              className="flex items-start gap-1.5 text-xs text-rose-700"
              data-testid="provider-check"
              data-ok="false"
            >
              <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
              {check.problem}
            </p>
          )
        ) : null}
        {savedNote ? (
          <p className="text-xs text-zinc-600" role="status" data-testid="provider-saved">
            {savedNote}
          </p>
        ) : null}
        {failure ? (
          <p className="text-xs text-rose-700" role="alert" data-testid="provider-error">
            {errorMessage(failure)}
          </p>
        ) : null}
      </div>

      <ConfirmDialog
        open={confirmRemove}
        title={`Remove ${provider.display_name}?`}
        description="The saved settings are deleted. Runs already started keep their model."
        confirmLabel="Remove"
        tone="danger"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmRemove(false)}
        data-testid="provider-remove-dialog"
      />
    </section>
  );
}

function Field({
  label,
  htmlFor,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={htmlFor} className="block text-xs font-medium text-zinc-700">
        {label}
      </label>
      {children}
      {hint ? <p className="text-[11px] text-zinc-400">{hint}</p> : null}
    </div>
  );
}

function SourceBadge({ provider }: { provider: ProviderSetting }) {
  if (provider.overridden_by_environment) return <Badge tone="amber">Environment wins</Badge>;
  if (provider.source === "environment") return <Badge tone="green">From the environment</Badge>;
  if (provider.source === "settings") return <Badge tone="indigo">Saved here</Badge>;
  return <Badge>Not set</Badge>;
}

function SourceDescription({ provider }: { provider: ProviderSetting }) {
  const variable =
    provider.provider === "compatible" ? "OPENAI_COMPATIBLE_BASE_URL" : provider.key_variable;
  if (provider.source === "environment") {
    return (
      <>
        Set by <code className="font-mono">{variable}</code>
        {provider.base_url ? ` (${provider.base_url})` : ""}; the environment wins over anything
        saved here.
      </>
    );
  }
  if (provider.saved) {
    return (
      <>
        {provider.saved.key_hint ? `Key ${provider.saved.key_hint}` : "No key"}
        {provider.saved.base_url ? ` · ${provider.saved.base_url}` : ""} · saved{" "}
        <RelativeTime value={provider.saved.updated_at} />. Stored encrypted; never shown again.
      </>
    );
  }
  return (
    <>
      Not configured. Save a key here, or set <code className="font-mono">{variable}</code> in the
      environment.
    </>
  );
}
