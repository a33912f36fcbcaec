"use client";

import { useQuery } from "@tanstack/react-query";
import { request as requestJson } from "@/components/api-client";

/** One engine as GET /api/engines serves it. */
export interface EngineStatusJson {
  id: string;
  label: string;
  available: boolean;
  reason?: string;
  code?: string;
  version?: string;
}

export type ApprovalPolicyChoice = "ask" | "auto";

export const enginesQueryKey = ["engines"] as const;

/**
 * The engine menu beside the model picker, from GET /api/engines: engines that cannot run are
 * greyed out with the reason and its fix; for an external engine, the approval policy too.
 */
export function EngineMenu({
  value,
  onChange,
  policy,
  onPolicyChange,
  disabled,
}: {
  value: string;
  onChange: (engine: string) => void;
  policy: ApprovalPolicyChoice;
  onPolicyChange: (policy: ApprovalPolicyChoice) => void;
  disabled?: boolean;
}) {
  const engines = useQuery({
    queryKey: enginesQueryKey,
    queryFn: ({ signal }) =>
      requestJson<{ engines: EngineStatusJson[] }>("GET", "/api/engines", { signal }).then(
        (body) => body.engines,
      ),
    staleTime: 30_000,
  });
  const list = engines.data ?? [{ id: "native", label: "Patchwork agent", available: true }];
  const chosen = list.find((engine) => engine.id === value);
  const unavailable = list.filter((engine) => !engine.available);

  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
      <label className="flex items-center gap-1">
        <span className="sr-only">Engine</span>
        <select
          className="h-7 rounded-md border border-zinc-200 bg-white px-1.5 text-xs"
          value={chosen?.available ? value : "native"}
          onChange={(event) => onChange(event.target.value)}
          disabled={disabled}
          data-testid="engine-menu"
        >
          {list.map((engine) => (
            <option
              key={engine.id}
              value={engine.id}
              disabled={!engine.available}
              title={engine.reason}
              data-testid={`engine-option-${engine.id}`}
            >
              {engine.label}
              {engine.available ? "" : " (unavailable)"}
            </option>
          ))}
        </select>
      </label>
      {value !== "native" && chosen?.available ? (
        <label className="flex items-center gap-1">
          <span>Approvals</span>
          <select
            className="h-7 rounded-md border border-zinc-200 bg-white px-1.5 text-xs"
            value={policy}
            onChange={(event) => onPolicyChange(event.target.value as ApprovalPolicyChoice)}
            disabled={disabled}
            data-testid="approval-policy"
          >
            <option value="ask">Ask before every change</option>
            <option value="auto">Accept file changes, ask for commands</option>
          </select>
        </label>
      ) : null}
      {unavailable.length > 0 ? (
        <details className="w-full" data-testid="engine-unavailable-reasons">
          <summary className="cursor-pointer text-zinc-400">
            {unavailable.length} engine{unavailable.length === 1 ? "" : "s"} unavailable
          </summary>
          <ul className="mt-1 space-y-0.5 text-zinc-500">
            {unavailable.map((engine) => (
              <li key={engine.id} data-testid={`engine-reason-${engine.id}`}>
                <span className="font-medium">{engine.label}:</span> {engine.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
