import { Settings } from "lucide-react";
import Link from "next/link";
import { ThemeToggle } from "@/components/theme-toggle";
import { cn } from "@/components/ui/class-names";

/**
 * The theme toggle and the way to Settings, as every page's header offers them; `compact` shows
 * Settings as an icon where the header is busy (the workspace).
 */
export function HeaderActions({ compact = false }: { compact?: boolean }) {
  return (
    <>
      <ThemeToggle />
      <Link
        href="/settings"
        className={cn(
          "inline-flex items-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900",
          compact ? "size-7 justify-center" : "h-7 gap-1.5 px-2.5 text-xs font-medium",
        )}
        aria-label={compact ? "Settings" : undefined}
        title="Settings"
        data-testid="open-settings"
      >
        <Settings className="size-4" aria-hidden="true" />
        {compact ? null : "Settings"}
      </Link>
    </>
  );
}
