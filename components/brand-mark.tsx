import Link from "next/link";

/** The Patchwork logo and name, linking home. */
export function BrandMark({ compact = false }: { compact?: boolean }) {
  return (
    <Link
      href="/"
      className="flex items-center gap-2 rounded-md text-sm font-semibold tracking-tight text-zinc-900"
      aria-label="Patchwork home"
    >
      <svg viewBox="0 0 32 32" className="size-6" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#18181b" />
        <rect x="7" y="7" width="8" height="8" rx="2" fill="#818cf8" />
        <rect x="17" y="7" width="8" height="8" rx="2" fill="#fafafa" />
        <rect x="7" y="17" width="8" height="8" rx="2" fill="#fafafa" />
        <rect x="17" y="17" width="8" height="8" rx="2" fill="#a5b4fc" opacity="0.6" />
      </svg>
      {compact ? null : <span>Patchwork</span>}
    </Link>
  );
}
