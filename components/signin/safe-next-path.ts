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
    const path = url.pathname + url.search + url.hash;
    // Dot segments can collapse into a protocol-relative path ("/.//host" → "//host"): keep the
    // result only if it still resolves to this site when the browser follows it.
    if (new URL(path, base).origin !== base || /^[/\\]{2}/.test(path)) return "/";
    return path;
  } catch {
    return "/";
  }
}
