/**
 * Where to go after signing in: only a relative path on this site, so a crafted link cannot
 * bounce a freshly signed-in person to another origin ("//evil.example", "/\\evil", "https:…").
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  try {
    const base = "http://patchwork.invalid";
    const url = new URL(next, base);
    if (url.origin !== base) return "/";
    if (url.pathname === "/signin") return "/";
    return url.pathname + url.search + url.hash;
  } catch {
    return "/";
  }
}
