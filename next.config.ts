import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and a data-dir loader that bundlers break; load it from node_modules.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "esbuild",
    "@tailwindcss/node",
    "@tailwindcss/oxide",
    "lightningcss",
  ],
  // Separate build folders let parallel test runs build without clobbering each other.
  distDir: process.env.PATCHWORK_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
