/**
 * Headers every builder response carries: the builder may not be framed by anyone (clickjacking
 * of Publish or Restore), nor its responses sniffed into another type, nor its URLs (app ids) sent
 * to other sites. The preview and published documents are framed by design and set their own
 * sandboxing CSP, so they get only `nosniff`.
 */
export function securityHeaders(pathname: string): Record<string, string> {
  const framedDocument =
    pathname === "/p" ||
    pathname.startsWith("/p/") ||
    pathname === "/preview" ||
    pathname.startsWith("/preview/");
  if (framedDocument) return { "X-Content-Type-Options": "nosniff" };
  return {
    "Content-Security-Policy":
      "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
  };
}
