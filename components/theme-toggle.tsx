"use client";

import { Monitor, Moon, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";

const order = ["system", "light", "dark"] as const;
type ThemeChoice = (typeof order)[number];

const names: Record<ThemeChoice, string> = {
  system: "System",
  light: "Light",
  dark: "Dark",
};

const icons = { system: Monitor, light: Sun, dark: Moon } as const;

// The stored choice is known only in the browser: render a neutral button on the server.
const subscribeNever = () => () => {};
function useMounted(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/**
 * Light, dark, or the system's setting (the default), one click to the next. The choice is
 * kept in this browser; next-themes applies it before the first paint, so pages never flash.
 */
export function ThemeToggle() {
  const { theme, resolvedTheme, setTheme } = useTheme();
  const mounted = useMounted();
  const current: ThemeChoice =
    mounted && order.includes(theme as ThemeChoice) ? (theme as ThemeChoice) : "system";
  const next = order[(order.indexOf(current) + 1) % order.length];
  const Icon = icons[current];
  const label =
    current === "system" && mounted && resolvedTheme
      ? `Theme: System (${resolvedTheme}). Switch to ${names[next]}`
      : `Theme: ${names[current]}. Switch to ${names[next]}`;
  return (
    <Button
      variant="ghost"
      size="icon-sm"
      aria-label={label}
      title={label}
      onClick={() => setTheme(next)}
      data-testid="theme-toggle"
      data-theme-choice={mounted ? current : undefined}
    >
      <Icon />
    </Button>
  );
}
