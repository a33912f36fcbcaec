import type { RunUsage } from "./agent-api-types";

const compactNumber = new Intl.NumberFormat("en", {
  notation: "compact",
  maximumFractionDigits: 1,
});

/** 950 → "950", 12_300 → "12.3K". */
export function formatTokenCount(count: number): string {
  return compactNumber.format(count);
}

/** "$0.0042", "$1.20"; sub-cent costs keep two significant digits. */
export function formatCost(costUsd: number): string {
  if (costUsd === 0) return "$0";
  if (costUsd < 0.01) return `$${costUsd.toPrecision(2)}`;
  return `$${costUsd.toFixed(2)}`;
}

/** One quiet line under a reply: "12.3K in · 480 out · $0.031" (cost only when known). */
export function formatUsage(usage: RunUsage): string {
  const input =
    usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  const parts = [`${formatTokenCount(input)} in`, `${formatTokenCount(usage.output_tokens)} out`];
  if (usage.cache_read_input_tokens > 0) {
    parts.push(`${formatTokenCount(usage.cache_read_input_tokens)} cached`);
  }
  if (usage.total_cost_usd !== null) parts.push(formatCost(usage.total_cost_usd));
  return parts.join(" · ");
}
