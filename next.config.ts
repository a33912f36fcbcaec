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
  // The build type-checks what ships; `npm run typecheck` covers tests, benchmarks and tools too.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
