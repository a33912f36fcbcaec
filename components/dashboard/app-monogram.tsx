import { cn } from "@/components/ui/class-names";

const palettes = [
  "bg-indigo-100 text-indigo-700",
  "bg-emerald-100 text-emerald-700",
  "bg-amber-100 text-amber-700",
  "bg-sky-100 text-sky-700",
  "bg-rose-100 text-rose-700",
  "bg-violet-100 text-violet-700",
  "bg-teal-100 text-teal-700",
];

/** A coloured tile with the app's first letter; the colour is stable per app id. */
export function AppMonogram({
  id,
  name,
  className,
}: {
  id: string;
  name: string;
  className?: string;
}) {
  let hash = 0;
  for (const character of id) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  const letter = name.trim().charAt(0).toUpperCase() || "A";
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-9 shrink-0 items-center justify-center rounded-lg text-sm font-semibold",
        palettes[hash % palettes.length],
        className,
      )}
    >
      {letter}
    </span>
  );
}
