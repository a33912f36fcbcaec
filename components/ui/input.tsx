import type { ComponentProps } from "react";
import { cn } from "./class-names";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return (
    <input
      className={cn(
        "h-9 w-full min-w-0 rounded-lg border border-zinc-200 bg-white px-3 text-sm text-zinc-900 shadow-xs transition-colors placeholder:text-zinc-400 hover:border-zinc-300 focus-visible:border-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-500/25 disabled:opacity-60 aria-invalid:border-rose-400",
        className,
      )}
      {...props}
    />
  );
}
