import { cn } from "./class-names";

/** A key hint such as ⌘S, styled as a small key cap. */
export function KeyboardShortcut({
  children,
  className,
}: {
  children: string;
  className?: string;
}) {
  return (
    <kbd
      className={cn(
        "rounded border border-current/20 px-1 font-sans text-[10px] leading-4 font-medium opacity-70",
        className,
      )}
    >
      {children}
    </kbd>
  );
}
