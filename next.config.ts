import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and a data-dir loader that bundlers break; load it from node_modules.
  serverExternalPackages: ["@electric-sql/pglite", "esbuild", "@tailwindcss/node", "@tailwindcss/oxide", "lightningcss"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
