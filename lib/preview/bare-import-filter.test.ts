import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { bareImportFilterExcept } from "./bare-import-filter";

const names = ["react", "react-dom", "react-dom/client", "react/jsx-runtime", "clsx"];

describe("bareImportFilterExcept", () => {
  const filter = bareImportFilterExcept(names);

  it("does not match the listed names, relative or app-absolute paths", () => {
    for (const specifier of [...names, "./App", "../x", "/src/main.tsx"]) {
      expect(filter.test(specifier), specifier).toBe(false);
    }
  });

  it("matches every other bare specifier, including prefixes and extensions of listed names", () => {
    for (const specifier of [
      "lodash",
      "reac",
      "reactx",
      "react-dom/server",
      "react/",
      "react-dom/client/x",
      "clsx/lite",
      "c",
      "node:fs",
      "@scope/pkg",
      "https://cdn.example.com/x.js",
      "data:text/css,x",
      "#anchor",
    ]) {
      expect(filter.test(specifier), specifier).toBe(true);
    }
  });

  it("is accepted by esbuild, whose filters are Go regular expressions", async () => {
    const resolved: string[] = [];
    await esbuild.build({
      stdin: { contents: 'import "lodash"; import "react";', resolveDir: "/" },
      bundle: true,
      write: false,
      logLevel: "silent",
      plugins: [
        {
          name: "probe",
          setup(build) {
            build.onResolve({ filter }, (args) => {
              resolved.push(args.path);
              return { path: args.path, external: true };
            });
            build.onResolve({ filter: /.*/ }, (args) => ({ path: args.path, external: true }));
          },
        },
      ],
    });
    expect(resolved).toEqual(["lodash"]);
  });
});
