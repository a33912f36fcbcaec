import { queryOptions } from "@tanstack/react-query";
import { request } from "@/components/api-client";
import type { ProviderCheckResult, ProviderSetting } from "@/components/api-types";

export interface ProviderSettingInput {
  api_key?: string | null;
  base_url?: string;
  models?: string[];
}

const providersPath = "/api/settings/providers";

export const providerSettingsApi = {
  list: (signal?: AbortSignal) =>
    request<{ providers: ProviderSetting[] }>("GET", providersPath, { signal }),
  save: (provider: string, body: ProviderSettingInput) =>
    request<{ provider: ProviderSetting }>("PUT", `${providersPath}/${provider}`, { body }),
  remove: (provider: string) => request<null>("DELETE", `${providersPath}/${provider}`),
  check: (provider: string, body: { api_key?: string; base_url?: string }) =>
    request<ProviderCheckResult>("POST", `${providersPath}/${provider}/test`, { body }),
};

export const providerSettingsQuery = () =>
  queryOptions({
    queryKey: ["provider-settings"] as const,
    queryFn: ({ signal }) => providerSettingsApi.list(signal).then((body) => body.providers),
  });
