import { createHash } from "node:crypto";

/** The CSP source expression allowing one exact inline script or style: 'sha256-<base64>'. */
export function sha256Source(content: string): string {
  return `'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`;
}

/**
 * The Content-Security-Policy of a preview document. Inline code runs only if its hash is listed,
 * so nothing injected into the page (and no CDN script) executes. The `sandbox` directive gives the
 * document an opaque origin even when its URL is opened directly in a tab, so it is never
 * same-origin with the builder and cannot read the builder's responses or cookies.
 */
export function previewContentSecurityPolicy(input: {
  scriptHashes: string[];
  styleHashes: string[];
}): string {
  const directives = [
    "default-src 'none'",
    `script-src ${listOrNone(input.scriptHashes)}`,
    // Stylesheets from https (web fonts' CSS) cannot run code; inline <style> must match a hash.
    `style-src ${[...unique(input.styleHashes), "https:"].join(" ")}`,
    // style="" attributes in index.html; React sets styles through the CSSOM, which CSP allows.
    "style-src-attr 'unsafe-inline'",
    "img-src data: blob: https:",
    "font-src data: https:",
    "media-src data: blob: https:",
    // Public HTTPS (and secure WebSocket) APIs are reachable; the builder is not, by CSP when it
    // runs on http (local default), and otherwise by the opaque origin: SameSite session cookies
    // are not sent from it, no CORS grant lets it read responses, and mutating routes refuse
    // `Origin: null`. CSP cannot exclude one https origin while allowing the rest.
    "connect-src https: wss:",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
    "sandbox allow-scripts allow-forms allow-popups allow-modals",
  ];
  return directives.join("; ");
}

/** Response headers for a preview document served with the given CSP. */
export function previewResponseHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": contentSecurityPolicy,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    // Browsers without CSP frame-ancestors still honour this.
    "X-Frame-Options": "SAMEORIGIN",
    "Cache-Control": "no-store",
  };
}

function listOrNone(sources: string[]): string {
  return sources.length === 0 ? "'none'" : unique(sources).join(" ");
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
