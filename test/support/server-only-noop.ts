// Tests run outside React Server Components; `server-only` only guards client bundles.
export {};
