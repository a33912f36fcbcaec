"use client";

import { useQuery } from "@tanstack/react-query";
import { request as requestJson } from "@/components/api-client";
import type { EngineStatusJson } from "@/lib/api/serializers";
import { engineChoiceProblem } from "./engine-choice";

export type { EngineStatusJson };

export type ApprovalPolicyChoice = "ask" | "auto";

export const enginesQueryKey = ["engines"] as const;

/**
 * The engine menu beside the model picker, from GET /api/engines: engines that cannot run, or
 * cannot use the chosen model, are greyed out with the reason and its fix; for an external
 * engine, the approval policy too.
 */
export function EngineMenu({
  value,
  onChange,
  policy,
  onPolicyChange,
  disabled,
  modelId,
}: {
  /** The model chosen in the picker (`auto` or `provider:model`). */
  modelId: string;
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
  const list: EngineStatusJson[] = engines.data ?? [
    {
      id: "native",
      label: "Patchwork agent",
      available: true,
      reason: null,
      code: null,
      version: null,
      model_providers: null,
      model_requirement: null,
    },
  ];
  const problems = new Map(list.map((engine) => [engine.id, engineChoiceProblem(engine, modelId)]));
  const usable = (engineId: string) => problems.has(engineId) && problems.get(engineId) === null;
  const unavailable = list.filter((engine) => problems.get(engine.id) !== null);

  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
      <label className="flex items-center gap-1">
        <span className="sr-only">Engine</span>
        <select
          className="h-7 rounded-md border border-zinc-200 bg-white px-1.5 text-xs"
          // A chosen engine that cannot run now stays shown, marked, so the choice is not silently
          // swapped for another; sending then answers with the reason.
          value={problems.has(value) ? value : "native"}
          onChange={(event) => onChange(event.target.value)}
          disabled={disabled}
          data-testid="engine-menu"
        >
          {list.map((engine) => (
            <option
              key={engine.id}
              value={engine.id}
              disabled={!usable(engine.id)}
              title={problems.get(engine.id) ?? undefined}
              data-testid={`engine-option-${engine.id}`}
            >
              {engine.label}
              {usable(engine.id)
                ? ""
                : engine.available
                  ? " (not with this model)"
                  : " (unavailable)"}
            </option>
          ))}
        </select>
      </label>
      {value !== "native" && usable(value) ? (
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
            {modelId === "auto" ? "" : " with this model"}
          </summary>
          <ul className="mt-1 space-y-0.5 text-zinc-500">
            {unavailable.map((engine) => (
              <li key={engine.id} data-testid={`engine-reason-${engine.id}`}>
                <span className="font-medium">{engine.label}:</span> {problems.get(engine.id)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
