import { cn } from "@/components/ui/class-names";

/** "+12 −3", optionally with GitHub-style blocks showing the balance of the change. */
export function DiffStat({
  additions,
  deletions,
  blocks = false,
  className,
}: {
  additions: number;
  deletions: number;
  blocks?: boolean;
  className?: string;
}) {
  const total = additions + deletions;
  const greenBlocks = total === 0 ? 0 : Math.round((additions / total) * 5);
  return (
    <span
      className={cn("inline-flex items-center gap-1.5 font-mono text-xs tabular-nums", className)}
    >
      <span className="sr-only">
        {additions} {additions === 1 ? "addition" : "additions"}, {deletions}{" "}
        {deletions === 1 ? "deletion" : "deletions"}
      </span>
      <span className="text-emerald-600" aria-hidden="true" data-testid="diff-stat-additions">
        +{additions}
      </span>
      <span className="text-rose-600" aria-hidden="true" data-testid="diff-stat-deletions">
        −{deletions}
      </span>
      {blocks && total > 0 ? (
        <span className="flex gap-px" aria-hidden="true">
          {[0, 1, 2, 3, 4].map((index) => (
            <span
              key={index}
              className={cn(
                "size-2 rounded-[2px]",
                index < greenBlocks ? "bg-emerald-500" : "bg-rose-500",
              )}
            />
          ))}
        </span>
      ) : null}
    </span>
  );
}
